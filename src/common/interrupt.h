// A host's "stop now" (the PostgreSQL extension: a query cancel or a statement timeout), for the waits plainsql
// cannot bound itself: an LLM's reply, a retry's back-off. Process-wide; the check may be called from any thread.
#pragma once

namespace plainsql {

/// `check(context)` returns true when the work in progress must stop. Null: nothing ever interrupts (the default).
using InterruptCheck = bool (*)(void* context);
void SetInterruptCheck(InterruptCheck check, void* context);

/// Whether the host asks to stop.
bool Interrupted();

}  // namespace plainsql
