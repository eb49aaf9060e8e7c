// Replaced files: kept under a second name while a writer may still append to
// them, and what was appended carried over to the live file.
#include "engine/replaced_files.hpp"

#include "base/error.hpp"
#include "base/platform.hpp"
#include "base/regular_file.hpp"
#include "base/write_all.hpp"
#include "store/scan.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

namespace engram::engine {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_manifest_suffix = ".json";

// A manifest written moments ago may name files its writer (an `engram
// append`, which takes no run lock) has not linked yet: only an older one's
// missing files are taken to be gone.
constexpr std::time_t k_linking_s = 60;

// Where no lease can tell whether a writer still holds a kept file, it is let
// go this long after its last write.
constexpr std::time_t k_quiet_s = 24 * 60 * 60;

// One kept file, as its manifest notes it.
struct KeptEntry {
  std::string file;       // its name in the folder
  std::string path;       // the live file's, store-relative
  std::uintmax_t carried; // its bytes accounted for: planned from, or carried over
  std::string hash;       // content hash of those bytes
};

fs::path folder_of(const fs::path& root, const store::Layout& layout) {
  return root / layout.state / "replaced";
}

std::vector<KeptEntry> read_manifest(const fs::path& manifest) {
  std::ifstream in(manifest, std::ios::binary);
  std::vector<KeptEntry> entries;
  try {
    const auto json = nlohmann::json::parse(in);
    for (const auto& item : json.at("entries")) {
      entries.push_back(
          KeptEntry{item.at("file").get<std::string>(), item.at("path").get<std::string>(),
                item.at("carried").get<std::uintmax_t>(), item.at("hash").get<std::string>()});
    }
  } catch (const std::exception& error) {
    spdlog::warn("{}: not a manifest of replaced files ({}); left as it is", manifest.string(),
                 error.what());
    return {};
  }
  return entries;
}

// Written whole under a temporary name, then renamed: a reader never sees half of one.
void write_manifest(const fs::path& manifest, const std::vector<KeptEntry>& entries) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& entry : entries) {
    list.push_back({{"file", entry.file},
                    {"path", entry.path},
                    {"carried", entry.carried},
                    {"hash", entry.hash}});
  }
  const std::string text = nlohmann::json{{"entries", list}}.dump() + "\n";
  const fs::path temporary = manifest.string() + ".tmp";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0 || !write_all(fd, text) || ::close(fd) != 0 ||
      ::rename(temporary.c_str(), manifest.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temporary.c_str());
    throw Error("{}: cannot write: {}", manifest.string(), reason);
  }
}

// Whether a process holds the open file `fd` (read-only) open for writing.
enum class Writers { none, some, unknown };

// On Linux a read lease is granted only when no descriptor has the file open
// for writing; it lasts until `fd` is closed, so no writer can open it
// meanwhile without waiting for the close. Elsewhere nothing tells.
Writers writers_of(int fd) {
#ifdef F_SETLEASE
  if (::fcntl(fd, F_SETLEASE, F_RDLCK) == 0) {
    return Writers::none;
  }
  if (errno == EAGAIN) {
    return Writers::some;
  }
#else
  (void)fd;
#endif
  return Writers::unknown;
}

// The lines of `bytes` that `live` does not hold as a whole line, in order.
std::string lines_missing(std::string_view bytes, std::string_view live) {
  std::set<std::string_view> present;
  for (std::size_t at = 0; at < live.size();) {
    const auto end = std::min(live.find('\n', at), live.size());
    present.insert(live.substr(at, end - at));
    at = end + 1;
  }
  std::string missing;
  for (std::size_t at = 0; at < bytes.size();) {
    const auto end = std::min(bytes.find('\n', at), bytes.size());
    const auto line = bytes.substr(at, end - at);
    if (!line.empty() && !present.contains(line)) {
      missing.append(line).push_back('\n');
    }
    at = end + 1;
  }
  return missing;
}

// Appends `text` to the live file at `path` (made, with `mode`, when it is
// gone), on a line of its own, and makes it durable before the kept bytes
// can be let go.
bool append_to_live(const fs::path& path, std::string_view text, mode_t mode) {
  const int fd = ::open(path.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, mode & 0777);
  if (fd < 0) {
    spdlog::error("{}: cannot carry over what was written to it after engram replaced it "
                  "(kept in the state folder's replaced/): {}",
                  path.string(), std::strerror(errno));
    return false;
  }
  struct stat info {};
  char last = '\n';
  if (::fstat(fd, &info) == 0 && info.st_size > 0) {
    if (::pread(fd, &last, 1, info.st_size - 1) != 1) {
      last = '\n';
    }
  }
  const std::string separator = last == '\n' ? "" : "\n";
  const bool ok = write_all(fd, separator + std::string(text)) && ::fsync(fd) == 0;
  const std::string reason = std::strerror(errno);
  ::close(fd);
  if (!ok) {
    spdlog::error("{}: cannot carry over what was written to it after engram replaced it: {}",
                  path.string(), reason);
  }
  return ok;
}

std::string read_live(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// What to do with a kept file once looked at.
enum class Verdict { keep, let_go };

// Carries `bytes`, read from the kept file of `entry`, over to the live file.
// False when it could not (the kept file stays as it was noted).
// `open` says a writer may still write to it.
bool carry_bytes(const fs::path& live, KeptEntry& entry, const std::string& bytes, bool open,
                 mode_t mode) {
  const bool appended =
      bytes.size() >= entry.carried &&
      store::content_hash(std::string_view(bytes).substr(0, entry.carried)) == entry.hash;
  std::uintmax_t taken = bytes.size();
  std::string text;
  if (appended) {
    // While a writer holds it, a line may be half written: whole lines only.
    if (open) {
      const auto newline = bytes.rfind('\n');
      taken = newline == std::string::npos || newline < entry.carried ? entry.carried : newline + 1;
    }
    text = bytes.substr(entry.carried, taken - entry.carried);
  } else {
    // Rewritten, not appended to (a truncating save through the old
    // descriptor): what it holds that the live file lacks, once it is done.
    if (open) {
      return false;
    }
    text = lines_missing(bytes, read_live(live));
  }
  if (!text.empty() && !append_to_live(live, text, mode)) {
    return false;
  }
  if (!text.empty()) {
    spdlog::info("{}: {} bytes written to it after engram replaced it, carried over", live.string(),
                 text.size());
  }
  entry.carried = taken;
  entry.hash = store::content_hash(std::string_view(bytes).substr(0, taken));
  return true;
}

// Looks at one kept file: carries over what it gained and says whether it can go.
Verdict look_at(const fs::path& root, const fs::path& folder, KeptEntry& entry, std::time_t now,
             bool young) {
  const fs::path kept = folder / entry.file;
  const int fd = ::open(kept.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    return errno == ENOENT && young ? Verdict::keep : Verdict::let_go;
  }
  struct stat info {};
  struct stat live {};
  const fs::path live_path = root / entry.path;
  if (::fstat(fd, &info) != 0 || (::stat(live_path.c_str(), &live) == 0 &&
                                  live.st_dev == info.st_dev && live.st_ino == info.st_ino)) {
    ::close(fd); // never replaced (the rename did not happen): only the second name goes
    ::unlink(kept.c_str());
    return Verdict::let_go;
  }
  // The lease first, then the size: a writer that closed before it was
  // granted has written all it will.
  const Writers writers = writers_of(fd);
  bool done = ::fstat(fd, &info) == 0 && static_cast<std::uintmax_t>(info.st_size) == entry.carried;
  const bool open =
      writers == Writers::some || (writers == Writers::unknown && info.st_mtime + k_quiet_s >= now);
  if (!done) { // read only when it grew (or shrank): a kept file can be long
    std::string bytes;
    done = read_to_end(fd, static_cast<std::uintmax_t>(info.st_size),
                       std::numeric_limits<std::uintmax_t>::max() - 1, bytes) &&
           carry_bytes(live_path, entry, bytes, open, info.st_mode) &&
           entry.carried == bytes.size();
  }
  const bool let_go = done && !open;
  if (let_go) {
    ::unlink(kept.c_str()); // before the close: no writer can open it while the lease holds
  }
  ::close(fd);
  return let_go ? Verdict::let_go : Verdict::keep;
}

// True when the files of `manifest` may still be being linked: it is
// another process's (an `engram append`), written moments ago. This
// process's own are done: their apply has returned.
bool being_linked(const fs::path& manifest, std::time_t now) {
  const std::string name = manifest.stem().string(); // <time>-<pid>
  if (name.substr(name.rfind('-') + 1) == std::to_string(::getpid())) {
    return false;
  }
  struct stat info {};
  return ::stat(manifest.c_str(), &info) == 0 && info.st_mtime + k_linking_s >= now;
}

// The manifests in `folder`, oldest first (their names start with the time).
std::vector<fs::path> manifests_in(const fs::path& folder) {
  std::vector<fs::path> out;
  std::error_code error;
  for (fs::directory_iterator it(folder, error); !error && it != fs::directory_iterator();
       it.increment(error)) {
    const auto name = it->path().filename().string();
    if (name.ends_with(k_manifest_suffix)) {
      out.push_back(it->path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace

ReplacedFiles::ReplacedFiles(fs::path root, const store::Layout& layout)
    : m_root(std::move(root)), m_folder(folder_of(m_root, layout)) {}

void ReplacedFiles::begin(const std::vector<Replacing>& files) {
  m_paths.clear();
  if (files.empty()) {
    return;
  }
  std::error_code error;
  fs::create_directories(m_folder, error);
  struct timespec now {};
  ::clock_gettime(CLOCK_REALTIME, &now);
  m_batch = fmt::format("{}{:09}-{}", now.tv_sec, now.tv_nsec, ::getpid());
  std::vector<KeptEntry> entries;
  for (std::size_t i = 0; i < files.size(); ++i) {
    entries.push_back(
        KeptEntry{kept_name(i).filename().string(), files[i].path, files[i].size, files[i].hash});
    m_paths.push_back(files[i].path);
  }
  write_manifest(m_folder / (m_batch + std::string(k_manifest_suffix)), entries);
}

fs::path ReplacedFiles::kept_name(std::size_t index) const {
  return m_folder / fmt::format("{}.{}", m_batch, index);
}

bool ReplacedFiles::keep(std::size_t index) {
  const fs::path live = m_root / m_paths.at(index);
  const fs::path kept = kept_name(index);
  if (::link(live.c_str(), kept.c_str()) == 0) {
    return true;
  }
  if (errno != ENOENT) {
    spdlog::warn("{}: cannot keep a second name for it while it is replaced ({}); a writer "
                 "holding it open loses what it writes after",
                 live.string(), std::strerror(errno));
  }
  return false;
}

void ReplacedFiles::replace(std::size_t index, const fs::path& temporary) {
  const fs::path live = m_root / m_paths.at(index);
  const fs::path kept = kept_name(index);
  // The exchange puts the temporary in place and leaves at its name the file
  // that was in place at that instant, which is the one to keep: a file a
  // writer renamed into place after keep() linked the one before it would
  // otherwise be replaced with no second name, and its lines lost.
  if (platform::exchange_names(temporary, live) == 0) {
    if (::rename(temporary.c_str(), kept.c_str()) == 0) {
      return;
    }
    const int error = errno;
    if (platform::exchange_names(temporary, live) != 0) {
      // Our bytes stay in place; the replaced file waits at the temporary's
      // name, said in the log, and is never discarded as a temporary.
      spdlog::error("{}: cannot keep the file it replaced ({}); it is at {}", live.string(),
                    std::strerror(error), temporary.string());
      return;
    }
  }
  // No exchange here (or the kept name could not be given): a second name
  // first, then the rename.
  (void)keep(index);
  if (::rename(temporary.c_str(), live.c_str()) != 0) {
    throw Error("{}: cannot rename into place: {}", live.string(), std::strerror(errno));
  }
}

bool ReplacedFiles::move_aside(std::size_t index) {
  const fs::path live = m_root / m_paths.at(index);
  const fs::path kept = kept_name(index);
  if (::rename(live.c_str(), kept.c_str()) == 0) {
    return true;
  }
  if (errno == ENOENT) {
    return false;
  }
  throw Error("{}: cannot remove: {}", live.string(), std::strerror(errno));
}

CarriedOver carry_over(const fs::path& root, const store::Layout& layout, std::time_t now) {
  CarriedOver result;
  const fs::path folder = folder_of(root, layout);
  for (const auto& manifest : manifests_in(folder)) {
    const bool young = being_linked(manifest, now);
    auto entries = read_manifest(manifest);
    if (entries.empty()) {
      continue;
    }
    std::vector<KeptEntry> kept;
    bool changed = false;
    for (auto& entry : entries) {
      const KeptEntry before = entry;
      const Verdict outcome = look_at(root, folder, entry, now, young);
      if (entry.carried != before.carried || entry.hash != before.hash) {
        result.paths.push_back(entry.path);
        changed = true;
      }
      if (outcome == Verdict::keep) {
        kept.push_back(entry);
      } else {
        changed = true;
      }
    }
    result.still_held += kept.size();
    if (kept.empty()) {
      ::unlink(manifest.c_str());
    } else if (changed) {
      write_manifest(manifest, kept);
    }
  }
  std::sort(result.paths.begin(), result.paths.end());
  result.paths.erase(std::unique(result.paths.begin(), result.paths.end()), result.paths.end());
  return result;
}

bool replaced_kept(const fs::path& root, const store::Layout& layout) {
  return !manifests_in(folder_of(root, layout)).empty();
}

bool replaced_grew(const fs::path& root, const store::Layout& layout) {
  const fs::path folder = folder_of(root, layout);
  for (const auto& manifest : manifests_in(folder)) {
    for (const auto& entry : read_manifest(manifest)) {
      struct stat info {};
      if (::stat((folder / entry.file).c_str(), &info) == 0 &&
          static_cast<std::uintmax_t>(info.st_size) != entry.carried) {
        return true;
      }
    }
  }
  return false;
}

} // namespace engram::engine
