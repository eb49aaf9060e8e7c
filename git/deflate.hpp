// Deflate: the zlib streams git stores objects in, loose or packed, made by
// libdeflate at git's loose-object level (core.looseCompression = 1). A
// 20,000-entry folder's 1.2 MB tree took zlib 20-30 ms here, libdeflate
// 12 ms: most of writing that tree on each commit to the folder. Private to git/.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace engram::git::detail {

// Appends `bytes` as one zlib stream. False, `out` as it was, when that fails.
[[nodiscard]] bool put_deflated(std::string& out, std::string_view bytes);

// Appends `parts`, one after the other, as one zlib stream of stored blocks:
// the bytes as they are in zlib's framing (git's level 0), at the speed of a copy.
void put_stored(std::string& out, std::initializer_list<std::string_view> parts);

} // namespace engram::git::detail
