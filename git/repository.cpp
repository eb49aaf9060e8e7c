// Repository over libgit2: opening a store's repository, blobs and HEAD
// (staging is in staging.cpp, commits in commit.cpp, status in status.cpp,
// bringing the index up to HEAD after a stopped run in index_upkeep.cpp).
#include "git/repository.hpp"

#include "base/durability.hpp"
#include "base/error.hpp"
#include "base/fault.hpp"
#include "base/regular_file.hpp"
#include "base/sha1.hpp"
#include "git/libgit2.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <fstream>
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

namespace engram::git {

namespace {

using namespace detail;

// A string from the repository's local config, or empty when unset.
std::string local_config_string(git_repository* repository, const char* name) {
  Config all;
  Config local;
  if (git_repository_config(&all.pointer, repository) != 0 ||
      git_config_open_level(&local.pointer, all.pointer, GIT_CONFIG_LEVEL_LOCAL) != 0) {
    return {};
  }
  git_buf value = GIT_BUF_INIT;
  std::string result;
  if (git_config_get_string_buf(&value, local.pointer, name) == 0) {
    result.assign(value.ptr, value.size);
  }
  git_buf_dispose(&value);
  return result;
}

// git keeps what a fetch brings loose when it is fewer objects than this
// (transfer.unpackLimit): below it a pack's two files, and merging the pack
// later, cost more than a file per object. Above it, a file (and a flush)
// per object is what made writing a full consolidation's blobs slow.
constexpr std::size_t k_pack_from = 100;

using ObjectDatabase = Owned<git_odb, git_odb_free>;
using Wrapped = Owned<git_repository, git_repository_free>;
using PackBuilder = Owned<git_packbuilder, git_packbuilder_free>;

// Writes `blobs` as one pack in the repository's pack folder, through an
// object database of their own held in memory (a repository's own takes
// every later write into a memory backend once one is added to it). The
// repository's database then looks again, so it finds them at once.
Expected<std::vector<std::string>, Failure> write_pack(git_repository* repository,
                                                       const std::vector<std::string_view>& blobs) {
  fresh_errors();
  ObjectDatabase memory_database;
  git_odb_backend* memory = nullptr;
  if (git_odb_new(&memory_database.pointer) != 0 || git_mempack_new(&memory) != 0) {
    return unexpected(failure(-1, "cannot store the new blobs"));
  }
  if (const int code = git_odb_add_backend(memory_database.pointer, memory, 1); code != 0) {
    memory->free(memory);
    return unexpected(failure(code, "cannot store the new blobs"));
  }
  Wrapped wrapped;
  PackBuilder builder;
  if (const int code = git_repository_wrap_odb(&wrapped.pointer, memory_database.pointer) != 0
                           ? -1
                           : git_packbuilder_new(&builder.pointer, wrapped.pointer);
      code != 0) {
    return unexpected(failure(code, "cannot store the new blobs"));
  }
  std::vector<std::string> ids;
  ids.reserve(blobs.size());
  for (const auto& bytes : blobs) {
    git_oid id;
    int code =
        git_odb_write(&id, memory_database.pointer, bytes.data(), bytes.size(), GIT_OBJECT_BLOB);
    code = code != 0 ? code : git_packbuilder_insert(builder.pointer, &id, nullptr);
    if (code != 0) {
      return unexpected(failure(code, "cannot store a blob"));
    }
    ids.push_back(to_hex(id));
  }
  // The pack is made from the memory database, then indexed into the
  // repository's own, as a fetched pack is.
  git_buf pack = GIT_BUF_INIT;
  git_odb* database = nullptr;
  git_odb_writepack* writer = nullptr;
  git_indexer_progress progress{};
  int code = git_packbuilder_write_buf(&pack, builder.pointer);
  code = code != 0 ? code : git_repository_odb(&database, repository);
  code = code != 0 ? code : git_odb_write_pack(&writer, database, nullptr, nullptr);
  code = code != 0 ? code : writer->append(writer, pack.ptr, pack.size, &progress);
  code = code != 0 ? code : writer->commit(writer, &progress);
  code = code != 0 ? code : git_odb_refresh(database);
  if (writer != nullptr) {
    writer->free(writer);
  }
  git_odb_free(database);
  git_buf_dispose(&pack);
  if (code != 0) {
    return unexpected(failure(code, "cannot write the new blobs' pack"));
  }
  return ids;
}

} // namespace

Signature default_signature() {
  return {"engram", fmt::format("engram@{}", host_name())};
}

std::string host_name() {
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) != 0 || host[0] == '\0') {
    return "localhost";
  }
  return host.data();
}

std::string_view change_kind_name(ChangeKind kind) {
  switch (kind) {
  case ChangeKind::added:
    return "added";
  case ChangeKind::deleted:
    return "deleted";
  case ChangeKind::modified:
    break;
  }
  return "modified";
}

void Repository::Closer::operator()(git_repository* repository) const {
  git_repository_free(repository);
}

Repository::Repository(git_repository* repository, std::filesystem::path workdir)
    : m_repository(repository), m_workdir(std::move(workdir)) {}

Repository::~Repository() = default;
Repository::Repository(Repository&&) noexcept = default;
Repository& Repository::operator=(Repository&&) noexcept = default;

Expected<Repository, std::string> Repository::open(const std::filesystem::path& path) {
  ensure_library();
  const std::filesystem::path outside = outside_gitdir(path);
  std::error_code error;
  const bool apart = std::filesystem::is_directory(outside, error);
  git_repository* repository = nullptr;
  if (git_repository_open_ext(&repository, (apart ? outside : path).c_str(),
                              GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0) {
    return unexpected(last_error(fmt::format("cannot open git repository {}", path.string())));
  }
  if (git_repository_is_bare(repository) != 0) {
    git_repository_free(repository);
    return unexpected(fmt::format("{} is a bare git repository, not a store", path.string()));
  }
  return Repository(repository, path);
}

namespace {

// Whether `folder` holds a regular file at any depth.
bool holds_a_file(const std::filesystem::path& folder) {
  std::error_code error;
  for (auto it = std::filesystem::recursive_directory_iterator(folder, error);
       !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    if (it->is_regular_file(error)) {
      return true;
    }
  }
  return false;
}

// Whether the `.git` folder `gitdir` holds nothing a repository could lose:
// no object, no ref, no packed refs.
bool holds_nothing(const std::filesystem::path& gitdir) {
  std::error_code error;
  return std::filesystem::is_directory(gitdir, error) && !holds_a_file(gitdir / "objects") &&
         !holds_a_file(gitdir / "refs") && !std::filesystem::exists(gitdir / "packed-refs", error);
}

} // namespace

Expected<Repository, std::string> Repository::init(const std::filesystem::path& path) {
  ensure_library();
  if (exists_at(path)) {
    auto opened = open(path);
    if (opened || !holds_nothing(path / ".git")) {
      return opened;
    }
    spdlog::warn("{}: completing the git repository a failed init left half made ({})",
                 path.string(), opened.error());
  }
  git_repository* repository = nullptr;
  fresh_errors();
  if (git_repository_init(&repository, path.c_str(), 0) != 0) {
    return unexpected(last_error(fmt::format("cannot create git repository {}", path.string())));
  }
  return Repository(repository, path);
}

std::filesystem::path Repository::outside_gitdir(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::path absolute = fs::weakly_canonical(fs::absolute(root), error);
  if (error) {
    absolute = fs::absolute(root).lexically_normal();
  }
  if (!absolute.has_filename()) {
    absolute = absolute.parent_path(); // drop a trailing '/'
  }
  unsigned char digest[k_sha1_bytes] = {};
  const std::string text = absolute.string();
  if (!sha1({text}, digest)) {
    throw Error("cannot hash the path {}", text);
  }
  std::string hex;
  for (std::size_t i = 0; i < 8; ++i) {
    hex += fmt::format("{:02x}", digest[i]);
  }
  const char* data = std::getenv("XDG_DATA_HOME");
  const char* home = std::getenv("HOME");
  const fs::path base = data != nullptr && *data == '/'    ? fs::path(data)
                        : home != nullptr && *home != '\0' ? fs::path(home) / ".local/share"
                                                           : fs::path("/tmp");
  return base / "engram" / "history" / fmt::format("{}-{}.git", absolute.filename().string(), hex);
}

std::filesystem::path Repository::gitdir_of(const std::filesystem::path& root) {
  std::error_code error;
  const auto outside = outside_gitdir(root);
  return std::filesystem::is_directory(outside, error) ? outside : root / ".git";
}

bool Repository::exists_at(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::exists(path / ".git", error) ||
         std::filesystem::is_directory(outside_gitdir(path), error);
}

Expected<Repository, std::string> Repository::init_outside(const std::filesystem::path& root) {
  ensure_library();
  const auto gitdir = outside_gitdir(root);
  std::error_code error;
  if (!std::filesystem::is_directory(gitdir, error)) {
    // Made bare, then given its work tree in config: an init with a work tree
    // elsewhere would write a `.git` link file into the folder, which is the
    // user's repository's to have.
    git_repository_init_options options = GIT_REPOSITORY_INIT_OPTIONS_INIT;
    options.flags = GIT_REPOSITORY_INIT_MKPATH | GIT_REPOSITORY_INIT_BARE;
    git_repository* made = nullptr;
    fresh_errors();
    if (git_repository_init_ext(&made, gitdir.c_str(), &options) != 0) {
      return unexpected(
          last_error(fmt::format("cannot create git repository {}", gitdir.string())));
    }
    Config config;
    const bool configured = git_repository_config(&config.pointer, made) == 0 &&
                            git_config_set_bool(config.pointer, "core.bare", 0) == 0 &&
                            git_config_set_string(config.pointer, "core.worktree",
                                                  std::filesystem::absolute(root).c_str()) == 0;
    git_repository_free(made);
    if (!configured) {
      std::filesystem::remove_all(gitdir, error);
      return unexpected(
          last_error(fmt::format("cannot configure git repository {}", gitdir.string())));
    }
  }
  return open(root);
}

std::optional<std::filesystem::path> Repository::enclosing(const std::filesystem::path& path) {
  ensure_library();
  const std::filesystem::path parent = path.lexically_normal().parent_path();
  git_buf found = GIT_BUF_INIT;
  if (parent.empty() || git_repository_discover(&found, parent.c_str(), 0, nullptr) != 0) {
    git_buf_dispose(&found);
    return std::nullopt;
  }
  git_repository* repository = nullptr;
  std::optional<std::filesystem::path> workdir;
  if (git_repository_open(&repository, found.ptr) == 0) {
    if (const char* tree = git_repository_workdir(repository); tree != nullptr) {
      workdir = std::filesystem::path(tree).lexically_normal();
      if (!workdir->has_filename()) {
        workdir = workdir->parent_path(); // drop the trailing '/'
      }
    }
    git_repository_free(repository);
  }
  git_buf_dispose(&found);
  return workdir;
}

std::optional<Failure> Repository::flush() const {
  if (auto failed = sync_file_system(gitdir())) {
    return Failure{std::move(*failed)};
  }
  return std::nullopt;
}

std::optional<std::string> Repository::head() const {
  git_oid head_id;
  const int result = git_reference_name_to_id(&head_id, m_repository.get(), "HEAD");
  if (result == GIT_ENOTFOUND || result == GIT_EUNBORNBRANCH) {
    return std::nullopt;
  }
  if (result != 0) {
    throw Error(last_error("cannot resolve HEAD"));
  }
  return to_hex(head_id);
}

bool Repository::head_detached() const {
  const int result = git_repository_head_detached(m_repository.get());
  if (result < 0) {
    throw Error(last_error("cannot read HEAD"));
  }
  return result == 1;
}

Expected<std::string, Failure> Repository::write_blob(std::string_view bytes) {
  git_oid id;
  fresh_errors();
  if (const int code =
          git_blob_create_from_buffer(&id, m_repository.get(), bytes.data(), bytes.size());
      code != 0) {
    return unexpected(failure(code, "cannot store a blob"));
  }
  return to_hex(id);
}

Expected<std::vector<std::string>, Failure>
Repository::write_blobs(const std::vector<std::string_view>& blobs) {
  if (blobs.size() >= k_pack_from) {
    return write_pack(m_repository.get(), blobs);
  }
  // Each a loose object, as `git add` writes them; git's own upkeep packs them later.
  std::vector<std::string> ids;
  ids.reserve(blobs.size());
  for (const auto& bytes : blobs) {
    auto id = write_blob(bytes);
    if (!id) {
      return unexpected(std::move(id).error());
    }
    ids.push_back(std::move(*id));
  }
  return ids;
}

std::optional<std::string> Repository::read_blob(const std::string& id) const {
  git_oid oid;
  Blob blob;
  if (git_oid_fromstr(&oid, id.c_str()) != 0 ||
      git_blob_lookup(&blob.pointer, m_repository.get(), &oid) != 0) {
    return std::nullopt;
  }
  const auto* data = static_cast<const char*>(git_blob_rawcontent(blob.pointer));
  return std::string(data, static_cast<std::size_t>(git_blob_rawsize(blob.pointer)));
}

void Repository::ensure_excluded(std::string_view pattern) {
  const std::filesystem::path path = gitdir() / "info" / "exclude";
  std::string existing;
  if (std::ifstream in{path, std::ios::binary}) {
    existing.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::string line(pattern);
  if (existing == line || existing.starts_with(line + "\n") ||
      existing.find("\n" + line + "\n") != std::string::npos || existing.ends_with("\n" + line)) {
    return;
  }
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  std::ofstream out(path, std::ios::binary | std::ios::app);
  out << (existing.empty() || existing.ends_with('\n') ? "" : "\n") << line << "\n";
  if (!out) {
    throw Error("cannot write {}", path.string());
  }
}

std::filesystem::path Repository::gitdir() const {
  return git_repository_path(m_repository.get());
}

Signature Repository::signature_for(const Signature& configured) const {
  const Signature fallback = default_signature();
  Signature result;
  result.name = local_config_string(m_repository.get(), "user.name");
  result.email = local_config_string(m_repository.get(), "user.email");
  if (result.name.empty()) {
    result.name = configured.name.empty() ? fallback.name : configured.name;
  }
  if (result.email.empty()) {
    result.email = configured.email.empty() ? fallback.email : configured.email;
  }
  return result;
}

} // namespace engram::git
