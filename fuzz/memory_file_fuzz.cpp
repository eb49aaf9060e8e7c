// libFuzzer target for the memory-file reader: whatever parses must render
// back byte-identical, and an edited field must parse back with its new value
// while every other key keeps its place.
#include "store/memory_file.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto parsed = engram::store::MemoryFile::parse("fuzz.md", bytes);
  if (!parsed) {
    return 0;
  }
  auto& file = parsed.value();
  if (file.render() != bytes) {
    std::abort(); // a parse that does not round-trip would rewrite a user's bytes
  }
  if (!file.frontmatter()) {
    return 0;
  }
  const auto keys = file.frontmatter()->keys();
  try {
    file.frontmatter()->set_scalar("created", "2027-01-02");
    file.frontmatter()->set_list("tags", {"a", "b c", "d, e"});
  } catch (const std::exception&) {
    return 0; // an uneditable block (e.g. a flow mapping) is refused, not mangled
  }
  auto again = engram::store::MemoryFile::parse("fuzz.md", file.render());
  if (!again || again->field("created") != "2027-01-02" ||
      again->tags() != std::vector<std::string>{"a", "b c", "d, e"}) {
    std::abort();
  }
  // Keys that were there stay, in their order.
  const auto after = again->frontmatter()->keys();
  std::size_t at = 0;
  for (const auto& key : after) {
    if (at < keys.size() && key == keys[at]) {
      ++at;
    }
  }
  if (at != keys.size()) {
    std::abort();
  }
  return 0;
}
