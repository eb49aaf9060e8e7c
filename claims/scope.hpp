// Claims that hold in different scopes or of different things, judged
// before anything else is compared. Private to claims/ (compare.cpp).
#pragma once

#include "claims/tokens.hpp"

namespace engram::claims::detail {

// Whether the claims hold in different scopes: each names a scope or name the
// other lacks ("enabled in staging" and "enabled in production", "drain ci-01"
// and "drain ci-02"); the incoming one changes a value or the polarity within
// a scope the older did not name ("is 60 seconds in production" after "is 30
// seconds") or to things the older does not name ("10 days for international
// orders" after "5 days"), where the older may still hold elsewhere; or it
// says which things its value is of, and those are others (see other_case).
[[nodiscard]] bool in_another_scope(const ClaimTokens& in, const ClaimTokens& ex);

} // namespace engram::claims::detail
