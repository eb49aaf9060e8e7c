// Context: composing, in order of what an agent must always see first.
#include "hook/context.hpp"

#include "base/error.hpp"
#include "base/regular_file.hpp"
#include "base/utf8.hpp"
#include "recall/recall.hpp"
#include "store/memory_file.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <optional>

namespace engram::hook {

namespace fs = std::filesystem;

namespace {

// The most bytes of WORKING.md or CORE.md read.
constexpr std::uintmax_t k_loaded_file_bytes = 1024 * 1024;

// The most characters of working memory used as a query.
constexpr std::size_t k_query_chars = 2000;

// A file's bytes; nullopt when it is missing; a problem noted when it cannot be read.
std::optional<std::string> read_loaded(const fs::path& root, const std::string& name,
                                       std::vector<std::string>& problems) {
  RegularFile::Failure failure{};
  auto file = RegularFile::open(root / name, failure);
  if (!file) {
    if (errno != ENOENT) {
      problems.push_back(fmt::format("{}: {}", name, std::strerror(errno)));
    }
    return std::nullopt;
  }
  auto bytes = file->read(k_loaded_file_bytes);
  if (!bytes) {
    problems.push_back(fmt::format("{}: {}", name, std::strerror(errno)));
    return std::nullopt;
  }
  if (bytes->size() > k_loaded_file_bytes) {
    bytes->resize(k_loaded_file_bytes); // cut again below, at the budget
  }
  if (first_invalid_utf8(*bytes)) {
    problems.push_back(fmt::format("{}: not UTF-8; left out", name));
    return std::nullopt;
  }
  return bytes;
}

// The body of a memory file (its text without frontmatter), or the bytes when it has none.
std::string body_of(const std::string& name, const std::string& bytes) {
  auto parsed = store::MemoryFile::parse(name, bytes);
  return parsed ? parsed->body() : bytes;
}

// Adds one loaded file as a section, cut to what is left of the budget.
void add_section(std::string& text, std::size_t budget, const std::string& title,
                 const std::string& name, const std::optional<std::string>& bytes) {
  if (!bytes || bytes->find_first_not_of(" \t\r\n") == std::string::npos) {
    return;
  }
  const std::string heading = fmt::format("## {} ({})\n\n", title, name);
  // The section's own line ends (at most two) count too.
  const auto used = count_chars(text) + count_chars(heading) + 2;
  if (used >= budget) {
    return;
  }
  std::string section = cut_to_chars(
      *bytes, budget - used,
      fmt::format("\n… (cut at the context budget; the rest is in {})\n", name));
  if (!section.ends_with('\n')) {
    section += '\n';
  }
  const std::string block = heading + section + "\n";
  if (count_chars(text) + count_chars(block) <= budget) {
    text += block;
  }
}

// Adds the recalled memories, within what is left of the budget.
Context add_recalled(Context context, const fs::path& root, const store::Layout& layout,
                     const ContextRequest& request, const std::string& query) {
  constexpr std::string_view k_heading = "## Recalled memories\n\n";
  const auto used = count_chars(context.text) + k_heading.size();
  if (used >= request.budget_chars) {
    return context;
  }
  recall::Request ask;
  ask.query = query;
  ask.today = request.today;
  ask.session = request.session;
  ask.limits = request.recall_limits;
  ask.limits.budget_chars = std::min(ask.limits.budget_chars, request.budget_chars - used);
  const auto found = recall::recall(root, layout, ask);
  for (const auto& problem : found.selection.unreadable) {
    context.problems.push_back(problem);
  }
  if (!found.unnoted.empty()) {
    context.problems.push_back("the usage log: " + found.unnoted);
  }
  if (found.selection.memories.empty()) {
    return context;
  }
  context.text += k_heading;
  for (const auto& memory : found.selection.memories) {
    context.text += recall::context_block(memory.path, memory.content);
    context.recalled.push_back(memory.path);
  }
  return context;
}

} // namespace

std::string cut_to_chars(std::string_view text, std::size_t limit, std::string_view note) {
  if (count_chars(text) <= limit) {
    return std::string(text);
  }
  const auto note_chars = count_chars(note);
  if (note_chars >= limit) {
    return {};
  }
  const std::size_t keep = limit - note_chars;
  std::size_t bytes = 0;
  std::size_t chars = 0;
  while (bytes < text.size() && chars < keep) {
    ++bytes;
    while (bytes < text.size() && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80) {
      ++bytes;
    }
    ++chars;
  }
  std::string_view kept = text.substr(0, bytes);
  // End at a line when one ends in the last fifth, so a line is not cut midway.
  if (const auto newline = kept.rfind('\n');
      newline != std::string_view::npos && newline + 1 >= kept.size() * 4 / 5) {
    kept = kept.substr(0, newline + 1);
  }
  return std::string(kept) + std::string(note);
}

Context session_start(const fs::path& root, const store::Layout& layout,
                      const ContextRequest& request) {
  Context context;
  const auto core = read_loaded(root, layout.core, context.problems);
  const auto working = read_loaded(root, layout.working, context.problems);
  const std::string title = "# Memory (from engram)\n\n";
  context.text = title;
  add_section(context.text, request.budget_chars, "Core memory", layout.core, core);
  add_section(context.text, request.budget_chars, "Working memory", layout.working, working);
  std::string query = request.query;
  if (query.empty() && working) {
    query = cut_to_chars(body_of(layout.working, *working), k_query_chars, "");
  }
  if (!query.empty()) {
    context = add_recalled(std::move(context), root, layout, request, query);
  }
  if (context.text == title) {
    context.text.clear(); // nothing to say: say nothing
  }
  return context;
}

Context prompt_submit(const fs::path& root, const store::Layout& layout,
                      const ContextRequest& request) {
  Context context;
  if (request.query.empty() || request.budget_chars == 0) {
    return context;
  }
  context = add_recalled(std::move(context), root, layout, request, request.query);
  return context;
}

std::string hook_output(std::string_view event, const std::string& context) {
  const nlohmann::json out = {
      {"hookSpecificOutput",
       {{"hookEventName", std::string(event)}, {"additionalContext", context}}}};
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace engram::hook
