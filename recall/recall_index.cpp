// The recall index: built from `.index.json`'s entries and the stemmer once per change of
// `.index.json` (recall_index_build.cpp), read with nothing but line and tab splitting.
#include "recall/recall_index.hpp"

#include "base/error.hpp"
#include "base/platform.hpp"
#include "base/regular_file.hpp"
#include "base/write_all.hpp"
#include "recall/recall_index_format.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace engram::recall {

namespace fs = std::filesystem;

namespace {

// The file name in the state folder.
constexpr const char* k_file_name = "recall.idx";

// The most bytes of `.index.json` (and of a recall index) read.
constexpr std::uintmax_t k_max_bytes = 512ULL * 1024 * 1024;

// Splits `line` at tabs.
std::vector<std::string_view> fields_of(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const auto end = line.find('\t', start);
    out.push_back(line.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) {
      return out;
    }
    start = end + 1;
  }
}

// An unsigned number, or nullopt.
template <typename T> std::optional<T> number_of(std::string_view text) {
  T value{};
  const auto [ptr, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || ptr != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

// A file's bytes (at most k_max_bytes), or nullopt with errno set.
std::optional<std::string> read_capped(const fs::path& path) {
  RegularFile::Failure failure{};
  auto file = RegularFile::open(path, failure);
  if (!file) {
    return std::nullopt;
  }
  auto bytes = file->read(k_max_bytes);
  if (bytes && bytes->size() > k_max_bytes) {
    errno = EFBIG;
    return std::nullopt;
  }
  return bytes;
}

// Writes `bytes` to `path` through a temporary file and a rename (no fsync:
// the file is derived, and a torn one fails to parse and is rebuilt).
bool save(const fs::path& path, const std::string& bytes) {
  std::error_code error;
  fs::create_directories(path.parent_path(), error);
  std::string temporary =
      (path.parent_path() / ("." + path.filename().string() + ".XXXXXX.tmp")).string();
  const int fd = ::mkstemps(temporary.data(), 4);
  if (fd < 0) {
    return false;
  }
  if (!write_all(fd, bytes)) {
    ::close(fd);
    ::unlink(temporary.c_str());
    return false;
  }
  ::close(fd);
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    ::unlink(temporary.c_str());
    return false;
  }
  return true;
}

// Reads `.index.json` and builds the compact text for it.
std::string build_from(const fs::path& root, const store::Layout& layout,
                       const SourceStamp& stamp) {
  const fs::path source = root / layout.index_json;
  const auto bytes = read_capped(source);
  if (!bytes) {
    throw Error("{}: cannot read: {}", source.string(), std::strerror(errno));
  }
  return RecallIndex::build(*bytes, stamp, layout);
}

// The stamp in the header of the recall index at `path`, reading its first line only.
std::optional<SourceStamp> stored_stamp(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) {
    return std::nullopt;
  }
  char buffer[256];
  const auto n = ::read(fd, buffer, sizeof buffer);
  ::close(fd);
  if (n <= 0) {
    return std::nullopt;
  }
  std::string_view head(buffer, static_cast<std::size_t>(n));
  const auto end = head.find('\n');
  if (end == std::string_view::npos) {
    return std::nullopt;
  }
  auto index = RecallIndex::parse(std::string(head.substr(0, end + 1)));
  return index ? std::optional<SourceStamp>(index->source()) : std::nullopt;
}

} // namespace

std::optional<SourceStamp> stamp_of(const fs::path& file) {
  struct stat info {};
  if (::stat(file.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
    return std::nullopt;
  }
  return SourceStamp{static_cast<std::uintmax_t>(info.st_size), platform::modified_ns(info),
                     static_cast<std::uint64_t>(info.st_ino)};
}

namespace {

// The keyword of a W line ("W\t<keyword>\t<postings>").
std::string_view word_of(std::string_view line) {
  const auto rest = line.substr(2);
  return rest.substr(0, rest.find('\t'));
}

// The postings of a W line.
std::string_view postings_of(std::string_view line) {
  const auto rest = line.substr(2);
  const auto tab = rest.find('\t');
  return tab == std::string_view::npos ? std::string_view() : rest.substr(tab + 1);
}

} // namespace

std::optional<RecallIndex> RecallIndex::parse(std::string text) {
  RecallIndex index;
  index.m_text = std::make_unique<std::string>(std::move(text));
  if (!index.read_lines(*index.m_text)) {
    return std::nullopt;
  }
  return index;
}

std::optional<RecallIndex> RecallIndex::parse(MappedFile file) {
  RecallIndex index;
  index.m_mapped = std::move(file);
  if (!index.read_lines(index.m_mapped.bytes())) {
    return std::nullopt;
  }
  return index;
}

bool RecallIndex::read_lines(std::string_view all) {
  if (!all.starts_with(detail::k_magic) || !all.ends_with('\n')) {
    return false; // another format, or a torn file
  }
  const auto header_end = all.find('\n');
  const auto header = fields_of(all.substr(0, header_end));
  if (header.size() != 5) {
    return false;
  }
  const auto size = number_of<std::uintmax_t>(header[2]);
  const auto mtime = number_of<std::int64_t>(header[3]);
  const auto inode = number_of<std::uint64_t>(header[4]);
  if (!size || !mtime || !inode) {
    return false;
  }
  m_source = SourceStamp{*size, *mtime, *inode};
  // Only the lines are found here (memchr is all it costs); an entry is
  // parsed when a recall reaches it, a keyword's postings when it is asked for.
  const char* at = all.data() + header_end + 1;
  const char* const stop = all.data() + all.size();
  // Room for every line, made once: a list grown by doubling copies itself
  // into fresh memory each time. Room never written to costs no page.
  const auto lines = static_cast<std::size_t>(std::count(at, stop, '\n'));
  m_entry_lines.reserve(lines);
  while (at < stop) {
    const auto* newline =
        static_cast<const char*>(std::memchr(at, '\n', static_cast<std::size_t>(stop - at)));
    const std::string_view line(at, static_cast<std::size_t>(newline - at));
    at = newline + 1;
    if (line.starts_with("E\t")) {
      if (!m_word_lines.empty()) {
        return false; // entries come first
      }
      m_entry_lines.push_back(line);
    } else if (line.starts_with("W\t")) {
      if (m_word_lines.empty()) {
        m_word_lines.reserve(lines - m_entry_lines.size());
      } else if (!(word_of(m_word_lines.back()) < word_of(line))) {
        return false; // keywords are sorted, each once
      }
      m_word_lines.push_back(line);
    } else {
      return false;
    }
  }
  return true;
}

const Entry& RecallIndex::entry(std::uint32_t number) const {
  if (number >= m_entry_lines.size()) {
    throw std::out_of_range("recall index: no entry " + std::to_string(number));
  }
  if (m_parsed_at.empty()) {
    m_parsed_at.resize(m_entry_lines.size());
  }
  auto& at = m_parsed_at[number];
  if (at == 0) {
    // Split without allocating: a recall may reach thousands of entries.
    std::array<std::string_view, 6> fields;
    std::string_view rest = m_entry_lines[number];
    std::size_t count = 0;
    while (count < fields.size()) {
      const auto tab = rest.find('\t');
      fields[count++] = rest.substr(0, tab);
      if (tab == std::string_view::npos) {
        break;
      }
      rest = rest.substr(tab + 1);
    }
    Entry entry;
    if (count == 6) {
      entry.path = fields[1];
      entry.salience = fields[2] == "3" ? 3 : fields[2] == "1" ? 1 : 2;
      entry.episodic = fields[3] == "1";
      entry.created = fields[4] == "-" ? std::nullopt : Date::parse(fields[4]);
      entry.related = fields[5] == "-" ? std::string_view() : fields[5];
    }
    m_parsed.push_back(entry);
    at = static_cast<std::uint32_t>(m_parsed.size());
  }
  return m_parsed[at - 1];
}

std::vector<std::pair<std::uint32_t, unsigned>>
RecallIndex::postings(std::string_view keyword) const {
  std::vector<std::pair<std::uint32_t, unsigned>> out;
  const auto it = std::lower_bound(
      m_word_lines.begin(), m_word_lines.end(), keyword,
      [](std::string_view line, std::string_view key) { return word_of(line) < key; });
  if (it == m_word_lines.end() || word_of(*it) != keyword) {
    return out;
  }
  std::string_view rest = postings_of(*it);
  while (!rest.empty()) {
    const auto end = std::min(rest.find(','), rest.size());
    const auto item = rest.substr(0, end);
    rest = end == rest.size() ? std::string_view() : rest.substr(end + 1);
    const auto colon = item.find(':');
    const auto number = number_of<std::uint32_t>(item.substr(0, colon));
    const auto bits = colon == std::string_view::npos ? std::nullopt
                                                      : number_of<unsigned>(item.substr(colon + 1));
    if (number && bits && *number < size()) {
      out.emplace_back(*number, *bits);
    }
  }
  return out;
}

std::vector<std::uint32_t> RecallIndex::related(std::uint32_t number) const {
  std::vector<std::uint32_t> out;
  if (number >= size()) {
    return out;
  }
  std::string_view rest = entry(number).related;
  while (!rest.empty()) {
    const auto end = std::min(rest.find(','), rest.size());
    if (const auto other = number_of<std::uint32_t>(rest.substr(0, end));
        other && *other < size()) {
      out.push_back(*other);
    }
    rest = end == rest.size() ? std::string_view() : rest.substr(end + 1);
  }
  return out;
}

fs::path index_path(const fs::path& root, const store::Layout& layout) {
  return root / layout.state / k_file_name;
}

std::optional<RecallIndex> load(const fs::path& root, const store::Layout& layout) {
  const auto stamp = stamp_of(root / layout.index_json);
  if (!stamp) {
    return std::nullopt;
  }
  const fs::path path = index_path(root, layout);
  // Mapped, not read: engram alone writes it, and only by a rename.
  RegularFile::Failure failure{};
  if (const auto file = RegularFile::open(path, failure)) {
    if (auto mapped = MappedFile::map(*file, k_max_bytes)) {
      if (auto index = RecallIndex::parse(std::move(*mapped)); index && index->source() == *stamp) {
        return index;
      }
    }
  }
  auto text = build_from(root, layout, *stamp);
  save(path, text); // when it cannot be saved, the next recall builds it again
  return RecallIndex::parse(std::move(text));
}

bool refresh(const fs::path& root, const store::Layout& layout, const Prepared* prepared) {
  const auto stamp = stamp_of(root / layout.index_json);
  if (!stamp) {
    return false;
  }
  const fs::path path = index_path(root, layout);
  if (stored_stamp(path) == stamp) {
    return false;
  }
  // Read after the stamp: what the index describes is what the file held
  // once it had that stamp.
  const fs::path source = root / layout.index_json;
  const auto bytes = read_capped(source);
  if (!bytes) {
    throw Error("{}: cannot read: {}", source.string(), std::strerror(errno));
  }
  if (prepared != nullptr && *bytes == prepared->index_json) {
    return save(path, RecallIndex::stamped(*stamp, prepared->records));
  }
  return save(path, RecallIndex::build(*bytes, *stamp, layout)); // none, or changed since
}

} // namespace engram::recall
