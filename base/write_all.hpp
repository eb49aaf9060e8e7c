// Write all: a whole buffer written to a descriptor, through the short and
// interrupted writes a single write(2) may make.
#pragma once

#include <string_view>

namespace engram {

// Writes every byte of `bytes` to `descriptor`. False when a write fails (or
// writes nothing), with errno saying why; what was written stays written.
[[nodiscard]] bool write_all(int descriptor, std::string_view bytes);

} // namespace engram
