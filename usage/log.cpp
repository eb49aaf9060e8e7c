// The usage log: appending with one write under a shared lock, taking the log
// by rename under an exclusive one, and reading it line by line with a
// diagnostic for every line that cannot be used.
#include "usage/log.hpp"

#include "base/error.hpp"
#include "base/regular_file.hpp"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace engram::usage {

namespace fs = std::filesystem;

namespace {

// The live log's file name in the state folder.
constexpr const char* k_live_name = "usage.jsonl";

// How many times an append retries when the log it opened was taken meanwhile.
constexpr int k_append_attempts = 100;

// An open descriptor, closed on scope exit.
class Descriptor {
public:
  explicit Descriptor(int fd) : m_fd(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  // Closes it.
  ~Descriptor() {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
  }
  // The descriptor.
  int get() const { return m_fd; }

private:
  int m_fd;
};

// Syncs a folder, so a rename or removal in it is durable.
void sync_folder(const fs::path& folder) {
  const Descriptor fd(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() >= 0) {
    ::fsync(fd.get());
  }
}

// `text` cut to at most `limit` bytes, never inside a UTF-8 sequence.
std::string cut_utf8(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) {
    return std::string(text);
  }
  std::size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) {
    --end;
  }
  return std::string(text.substr(0, end));
}

// FNV-1a 64 of `bytes`, as 16 hex digits.
std::string fnv_hex(std::string_view bytes) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return fmt::format("{:016x}", hash);
}

// A store-relative path a log line may name: no absolute path, no "..", no empty part.
bool is_store_path(std::string_view path) {
  if (path.empty() || path.front() == '/' || path.find('\0') != std::string_view::npos ||
      path.find('\n') != std::string_view::npos) {
    return false;
  }
  std::size_t start = 0;
  while (start <= path.size()) {
    const auto end = std::min(path.find('/', start), path.size());
    const auto part = path.substr(start, end - start);
    if (part.empty() || part == "." || part == "..") {
      return false;
    }
    start = end + 1;
  }
  return true;
}

} // namespace

std::string to_line(const Event& event) {
  nlohmann::json line;
  line["event"] = event.kind == EventKind::recall ? "recall" : "feedback";
  line["date"] = event.date.to_string();
  line["files"] = event.files;
  if (event.kind == EventKind::feedback) {
    line["helpful"] = event.helpful;
  } else {
    line["query"] = cut_utf8(event.query, k_query_bytes);
  }
  if (!event.session.empty()) {
    line["session"] = cut_utf8(event.session, 200);
  }
  // Invalid UTF-8 in a query is replaced, never a reason to lose the line.
  return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::optional<Event> parse_line(std::string_view line, std::string& reason) {
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(line);
  } catch (const nlohmann::json::exception&) {
    reason = "not a JSON object";
    return std::nullopt;
  }
  if (!json.is_object()) {
    reason = "not a JSON object";
    return std::nullopt;
  }
  Event event;
  const auto kind = json.find("event");
  if (kind == json.end() || !kind->is_string() ||
      (*kind != "recall" && *kind != "feedback")) {
    reason = "\"event\" is not \"recall\" or \"feedback\"";
    return std::nullopt;
  }
  event.kind = *kind == "recall" ? EventKind::recall : EventKind::feedback;
  const auto date = json.find("date");
  const auto parsed = date != json.end() && date->is_string()
                          ? Date::parse(date->get<std::string>())
                          : std::nullopt;
  if (!parsed) {
    reason = "\"date\" is not a date YYYY-MM-DD";
    return std::nullopt;
  }
  event.date = *parsed;
  const auto files = json.find("files");
  if (files == json.end() || !files->is_array()) {
    reason = "\"files\" is not a list of paths";
    return std::nullopt;
  }
  for (const auto& file : *files) {
    if (!file.is_string() || !is_store_path(file.get<std::string>())) {
      reason = "\"files\" holds something that is not a store-relative path";
      return std::nullopt;
    }
    event.files.push_back(file.get<std::string>());
  }
  if (event.kind == EventKind::feedback) {
    const auto helpful = json.find("helpful");
    if (helpful == json.end() || !helpful->is_boolean()) {
      reason = "feedback without \"helpful\": true or false";
      return std::nullopt;
    }
    event.helpful = helpful->get<bool>();
  } else if (const auto query = json.find("query"); query != json.end() && query->is_string()) {
    event.query = query->get<std::string>();
  }
  if (const auto session = json.find("session"); session != json.end() && session->is_string()) {
    event.session = session->get<std::string>();
  }
  return event;
}

fs::path live_path(const fs::path& root, const store::Layout& layout) {
  return root / layout.state / k_live_name;
}

void append(const fs::path& root, const store::Layout& layout, const Event& event) {
  const fs::path path = live_path(root, layout);
  std::error_code error;
  fs::create_directories(path.parent_path(), error);
  const std::string line = to_line(event);
  for (int attempt = 0; attempt < k_append_attempts; ++attempt) {
    const Descriptor fd(
        ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600));
    if (fd.get() < 0) {
      throw Error("{}: cannot open the usage log: {}", path.string(), std::strerror(errno));
    }
    if (::flock(fd.get(), LOCK_SH) != 0) {
      throw Error("{}: cannot lock the usage log: {}", path.string(), std::strerror(errno));
    }
    // A consolidation may have taken the log between our open and our lock:
    // then the line belongs in the new live log, not the taken one.
    struct stat opened {};
    struct stat named {};
    if (::fstat(fd.get(), &opened) != 0 || ::lstat(path.c_str(), &named) != 0 ||
        opened.st_ino != named.st_ino || opened.st_dev != named.st_dev) {
      continue;
    }
    const auto written = ::write(fd.get(), line.data(), line.size());
    if (written != static_cast<ssize_t>(line.size())) {
      throw Error("{}: cannot append to the usage log: {}", path.string(),
                  written < 0 ? std::strerror(errno) : "a short write");
    }
    return;
  }
  throw Error("{}: the usage log kept being taken; the line was not written", path.string());
}

bool is_taken_name(std::string_view name) {
  return name.starts_with("usage-") && name.ends_with(".jsonl") && name.size() > 12;
}

TakenLog read_log(const fs::path& path, std::uintmax_t limit) {
  TakenLog log;
  log.name = path.filename().string();
  log.path = path;
  RegularFile::Failure failure{};
  auto file = RegularFile::open(path, failure);
  std::optional<std::string> bytes;
  if (file) {
    bytes = file->read(limit);
  }
  if (!bytes) {
    log.diagnostics.push_back(
        {path.string(), 1, fmt::format("cannot read the usage log: {}", std::strerror(errno))});
    log.hash = fnv_hex("");
    return log;
  }
  log.hash = fnv_hex(*bytes);
  if (bytes->size() > limit) {
    log.diagnostics.push_back({path.string(), 1,
                               fmt::format("the usage log is larger than {} bytes; only its first "
                                           "{} bytes are folded",
                                           limit, limit)});
    bytes->resize(static_cast<std::size_t>(limit));
  }
  std::string_view rest(*bytes);
  int number = 0;
  while (!rest.empty()) {
    ++number;
    const auto end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    if (end == std::string_view::npos) {
      // A line without its newline is one a writer was cut off in.
      log.diagnostics.push_back({path.string(), number, "an incomplete line (no newline)"});
      continue;
    }
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
      continue;
    }
    if (line.size() > k_line_bytes) {
      log.diagnostics.push_back({path.string(), number, "a line longer than 64 KiB"});
      continue;
    }
    std::string reason;
    if (auto event = parse_line(line, reason)) {
      log.events.push_back(std::move(*event));
    } else {
      log.diagnostics.push_back({path.string(), number, reason});
    }
  }
  return log;
}

std::optional<fs::path> take(const fs::path& root, const store::Layout& layout) {
  static std::atomic<unsigned> counter{0};
  const fs::path live = live_path(root, layout);
  const auto stamp = std::chrono::duration_cast<std::chrono::microseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
  const fs::path taken = live.parent_path() / fmt::format("usage-{}-{}-{}.jsonl", stamp, ::getpid(),
                                                          counter.fetch_add(1));
  if (::rename(live.c_str(), taken.c_str()) != 0) {
    if (errno == ENOENT) {
      return std::nullopt;
    }
    throw Error("{}: cannot take the usage log: {}", live.string(), std::strerror(errno));
  }
  sync_folder(live.parent_path());
  // An append that opened the log before the rename holds a shared lock while
  // it writes; once we hold the exclusive lock, every such write is done.
  const Descriptor fd(::open(taken.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (fd.get() >= 0 && ::flock(fd.get(), LOCK_EX) == 0) {
    ::flock(fd.get(), LOCK_UN);
  }
  return taken;
}

std::vector<fs::path> taken_paths(const fs::path& root, const store::Layout& layout) {
  std::vector<fs::path> out;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(root / layout.state, error)) {
    std::error_code type_error;
    if (entry.is_regular_file(type_error) && !entry.is_symlink(type_error) &&
        is_taken_name(entry.path().filename().string())) {
      out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void release(const fs::path& path) {
  std::error_code error;
  fs::remove(path, error);
  if (error) {
    throw Error("{}: cannot remove the folded usage log: {}", path.string(), error.message());
  }
  sync_folder(path.parent_path());
}

} // namespace engram::usage
