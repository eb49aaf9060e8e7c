// libFuzzer target for the plain frontmatter reader: whatever block it
// accepts, yaml-cpp must read the same way (the same keys on the same lines,
// the same nulls, scalars and lists), or the reader would answer something
// the YAML does not say.
#include "store/plain_block.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <yaml-cpp/yaml.h>

namespace {

using engram::store::PlainEntry;

bool same_value(const YAML::Node& value, const PlainEntry& entry) {
  switch (entry.kind) {
  case PlainEntry::Kind::null:
    return value.IsNull();
  case PlainEntry::Kind::scalar:
    return value.IsScalar() && value.Scalar() == entry.scalar;
  case PlainEntry::Kind::list: {
    if (!value.IsSequence() || value.size() != entry.items.size()) {
      return false;
    }
    std::size_t i = 0;
    for (const auto& item : value) {
      if (!item.IsScalar() || item.Scalar() != entry.items[i++]) {
        return false;
      }
    }
    return true;
  }
  }
  return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto entries = engram::store::read_plain_block(text);
  if (!entries) {
    return 0; // left to yaml-cpp
  }
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception&) {
    std::abort(); // accepted what YAML refuses
  }
  if (entries->empty()) {
    if (root.IsDefined() && !root.IsNull()) {
      std::abort();
    }
    return 0;
  }
  if (!root.IsMap() || root.size() != entries->size()) {
    std::abort();
  }
  std::size_t i = 0;
  for (const auto& pair : root) {
    const auto& entry = (*entries)[i++];
    if (!pair.first.IsScalar() || pair.first.Scalar() != entry.key ||
        static_cast<std::size_t>(pair.first.Mark().line) != entry.line ||
        !same_value(pair.second, entry)) {
      std::abort();
    }
  }
  return 0;
}
