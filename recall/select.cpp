// Selection: reading the best candidates until the limits are reached.
#include "recall/select.hpp"

#include "base/regular_file.hpp"
#include "base/utf8.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>

namespace engram::recall {

std::string context_block(const std::string& path, std::string_view content) {
  std::string block = "### " + path + "\n\n" + std::string(content);
  if (!block.ends_with('\n')) {
    block += '\n';
  }
  return block + "\n";
}

Selection select(const RecallIndex& index, const std::vector<Candidate>& ranked,
                 const std::filesystem::path& root, const Limits& limits) {
  Selection out;
  std::size_t tried = 0;
  for (const auto& candidate : ranked) {
    if (out.memories.size() >= limits.limit || tried >= limits.limit + k_extra_tries ||
        out.chars >= limits.budget_chars) {
      break;
    }
    ++tried;
    const std::string path(index.entry(candidate.entry).path);
    RegularFile::Failure failure{};
    auto file = RegularFile::open(root / path, failure);
    auto bytes = file ? file->read(limits.max_file_bytes) : std::nullopt;
    if (!bytes || bytes->size() > limits.max_file_bytes) {
      out.unreadable.push_back(fmt::format(
          "{}: {}", path, !bytes ? std::strerror(errno) : "larger than scan.max_file_bytes"));
      continue;
    }
    const auto chars = count_chars(context_block(path, *bytes));
    if (out.chars + chars > limits.budget_chars) {
      continue; // a smaller one further down may still fit
    }
    out.chars += chars;
    Memory memory{path, candidate.score, "", std::move(*bytes), chars};
    if (candidate.via) {
      memory.via = std::string(index.entry(*candidate.via).path);
    }
    out.memories.push_back(std::move(memory));
  }
  return out;
}

} // namespace engram::recall
