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
void write_optional(JsonWriter& writer, const std::optional<std::string>& value) {
  if (value) {
    writer.string(*value);
  } else {
    writer.value(nullptr);
  }
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

PendingText pending_parts(const Pending& pending) {
  // Written as it goes, not built first: the message and the record are
  // megabytes, and the record is JSON text already. Not indented: indenting
  // makes a full consolidation's state a seventh longer and a third slower to
  // write out (`jq .` shows it indented). Invalid UTF-8 is replaced rather
  // than failed on: the state must be written before anything is touched.
  std::string out;
  constexpr std::size_t k_per_file = 128; // a path, two ids, keys and quotes
  out.reserve(256 + pending.message.size() + pending.message.size() / 16 +
              pending.files.size() * k_per_file);
  JsonWriter writer(out, -1);
  writer.begin_object(); // the members in nlohmann's order, sorted by key
  writer.key("files");
  writer.begin_array();
  for (const auto& file : pending.files) {
    writer.begin_object();
    writer.key("base");
    write_optional(writer, file.base);
    writer.key("path");
    writer.string(file.path);
    writer.key("target");
    write_optional(writer, file.target);
    writer.end_object();
  }
  writer.end_array();
  writer.key("head");
  write_optional(writer, pending.head);
  if (pending.merged) {
    writer.key("merged");
    writer.string(*pending.merged);
  }
  writer.key("message");
  writer.string(pending.message);
  writer.key("operation");
  writer.string(pending.operation);
  writer.key("record");
  std::size_t split = 0; // where the record goes
  if (pending.record.empty()) {
    writer.value(nullptr);
  } else {
    writer.compact_text("");
    split = out.size();
  }
  writer.key("version");
  writer.value(k_version);
  writer.end_object();
  PendingText text;
  if (split != 0) {
    text.record = pending.record;
    text.after = out.substr(split);
    out.resize(split);
  }
  text.before = std::move(out);
  return text;
}

std::string pending_text(const Pending& pending) {
  const auto parts = pending_parts(pending);
  return parts.before + std::string(parts.record) + parts.after;
}

Pending pending_from_json(const nlohmann::json& json) {
  if (json.at("version").get<int>() != k_version) {
    throw Error("it is version {} and this engram reads version {}", json.at("version").get<int>(),
                k_version);
  }
  Pending pending;
  pending.operation = json.at("operation").get<std::string>();
  pending.head = string_or_null(json, "head");
  if (json.contains("merged")) {
    pending.merged = string_or_null(json, "merged");
  }
  pending.message = json.at("message").get<std::string>();
  if (const auto& record = json.at("record"); !record.is_null()) {
    pending.record = json_text(record);
  }
  for (const auto& file : json.at("files")) {
    pending.files.push_back(PendingFile{file.at("path").get<std::string>(),
                                        string_or_null(file, "base"),
                                        string_or_null(file, "target")});
  }
  return pending;
}

void write_pending(const fs::path& root, const store::Layout& layout, const Pending& pending) {
  auto text = pending_parts(pending);
  text.after += '\n';
  write_atomically(pending_path(root, layout), {text.before, text.record, text.after});
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
