// Pending: the working state's file format. Versioned, so a newer engram can
// refuse a state it does not understand rather than act on half of it.
#include "engine/pending.hpp"

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "engine/apply.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <unistd.h>
#include <utility>

namespace engram::engine {

namespace fs = std::filesystem;

namespace {

// The format this engram writes and reads.
constexpr int k_version = 1;

// A JSON string, or null for nullopt.
nlohmann::json optional_string(const std::optional<std::string>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

// The string at `key`, or nullopt when it is null.
std::optional<std::string> string_or_null(const nlohmann::json& json, const char* key) {
  const auto& value = json.at(key);
  return value.is_null() ? std::nullopt : std::optional(value.get<std::string>());
}

} // namespace

fs::path pending_path(const fs::path& root, const store::Layout& layout) {
  return root / layout.state / "pending.json";
}

nlohmann::json pending_to_json(Pending pending) {
  // Filled in place and moved: the message and the record are megabytes.
  nlohmann::json::array_t files;
  files.reserve(pending.files.size());
  for (auto& file : pending.files) {
    nlohmann::json::object_t entry;
    entry.emplace("path", std::move(file.path));
    entry.emplace("base", optional_string(file.base));
    entry.emplace("target", optional_string(file.target));
    files.emplace_back(std::move(entry));
  }
  nlohmann::json::object_t out;
  out.emplace("version", k_version);
  out.emplace("operation", std::move(pending.operation));
  out.emplace("head", optional_string(pending.head));
  out.emplace("message", std::move(pending.message));
  out.emplace("record", std::move(pending.record));
  out.emplace("files", std::move(files));
  return out;
}

Pending pending_from_json(const nlohmann::json& json) {
  if (json.at("version").get<int>() != k_version) {
    throw Error("it is version {} and this engram reads version {}", json.at("version").get<int>(),
                k_version);
  }
  Pending pending;
  pending.operation = json.at("operation").get<std::string>();
  pending.head = string_or_null(json, "head");
  pending.message = json.at("message").get<std::string>();
  pending.record = json.at("record");
  for (const auto& file : json.at("files")) {
    pending.files.push_back(PendingFile{file.at("path").get<std::string>(),
                                        string_or_null(file, "base"),
                                        string_or_null(file, "target")});
  }
  return pending;
}

void write_pending(const fs::path& root, const store::Layout& layout, Pending pending) {
  // Invalid UTF-8 is replaced rather than failed on: the state must be
  // written before anything is touched, and only messages could hold such
  // bytes. Not indented: a full consolidation's state is megabytes, which
  // indenting makes a seventh longer and a third slower to write out (`jq .`
  // shows it indented). json_text, not dump: megabytes of claim text.
  std::string text = json_text(pending_to_json(std::move(pending)));
  text += '\n';
  write_atomically(pending_path(root, layout), text);
}

std::optional<Pending> read_pending(const fs::path& root, const store::Layout& layout) {
  const fs::path path = pending_path(root, layout);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (errno == ENOENT || !fs::exists(path)) {
      return std::nullopt;
    }
    throw Error("{}: cannot read: {}", path.string(), std::strerror(errno));
  }
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  try {
    return pending_from_json(nlohmann::json::parse(text));
  } catch (const std::exception& error) {
    throw Error("{}: an interrupted change's working state cannot be read ({}); engram will not "
                "guess at it. Look at it, finish or undo the change by hand, then remove the file",
                path.string(), error.what());
  }
}

void clear_pending(const fs::path& root, const store::Layout& layout) {
  const fs::path path = pending_path(root, layout);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    throw Error("{}: cannot remove: {}", path.string(), std::strerror(errno));
  }
  const int fd = ::open(path.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

} // namespace engram::engine
