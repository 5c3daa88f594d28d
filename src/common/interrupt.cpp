#include "common/interrupt.h"

#include <atomic>

namespace plainsql {

namespace {
std::atomic<InterruptCheck> g_check{nullptr};
std::atomic<void*> g_context{nullptr};
}  // namespace

void SetInterruptCheck(InterruptCheck check, void* context) {
  g_context.store(context);
  g_check.store(check);
}

bool Interrupted() {
  InterruptCheck check = g_check.load();
  return check != nullptr && check(g_context.load());
}

}  // namespace plainsql
