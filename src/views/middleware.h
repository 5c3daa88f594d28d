// Moved: natural names without views now live in naturalness/translate_query.h (issue #16). This header only forwards
// the old names for callers not yet updated; include naturalness/translate_query.h instead. It goes once none is left.
#pragma once

#include "naturalness/translate_query.h"

namespace plainsql::views {

using naturalness::NaturalSchema;
using naturalness::Translate;
using naturalness::Translation;

}  // namespace plainsql::views
