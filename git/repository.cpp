// Repository over libgit2: staging, committing and status of a store.
#include "git/repository.hpp"

#include "base/error.hpp"

#include <array>
#include <fmt/format.h>
#include <git2.h>
#include <unistd.h>

namespace engram::git {

namespace {

// Initialises libgit2 once for the process and shuts it down at exit.
class Library {
public:
  // Makes sure libgit2 is initialised; cheap after the first call.
  static void ensure() { static const Library k_library; }

  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;

private:
  Library() { git_libgit2_init(); }
  ~Library() { git_libgit2_shutdown(); }
};

// libgit2's message for the last failure, prefixed with what we were doing.
std::string last_error(std::string_view doing) {
  const git_error* error = git_error_last();
  return fmt::format("{}: {}", doing,
                     error != nullptr && error->message != nullptr ? error->message
                                                                   : "unknown libgit2 error");
}

// Owns one libgit2 object and frees it with its own free function.
template <typename T, void (*Free)(T*)> struct Owned {
  T* pointer = nullptr;

  Owned() = default;
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  ~Owned() {
    if (pointer != nullptr) {
      Free(pointer);
    }
  }
};

using Index = Owned<git_index, git_index_free>;
using Tree = Owned<git_tree, git_tree_free>;
using Commit = Owned<git_commit, git_commit_free>;
using Config = Owned<git_config, git_config_free>;
using StatusList = Owned<git_status_list, git_status_list_free>;
using GitSignature = Owned<git_signature, git_signature_free>;

// Formats an object id as 40 hex digits.
std::string to_hex(const git_oid& oid) {
  std::array<char, GIT_OID_HEXSZ + 1> buffer{};
  git_oid_tostr(buffer.data(), buffer.size(), &oid);
  return buffer.data();
}

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

// Ensures a commit message ends in exactly one newline, as git writes them.
std::string normalise_message(std::string_view message) {
  std::string result(message);
  while (!result.empty() && result.back() == '\n') {
    result.pop_back();
  }
  result += '\n';
  return result;
}

} // namespace

Signature default_signature() {
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) != 0 || host[0] == '\0') {
    return {"engram", "engram@localhost"};
  }
  return {"engram", fmt::format("engram@{}", host.data())};
}

void Repository::Closer::operator()(git_repository* repository) const {
  git_repository_free(repository);
}

Repository::Repository(git_repository* repository, std::filesystem::path workdir)
    : m_repository(repository), m_workdir(std::move(workdir)) {}

Repository::~Repository() = default;

Expected<Repository, std::string> Repository::open(const std::filesystem::path& path) {
  Library::ensure();
  git_repository* repository = nullptr;
  if (git_repository_open_ext(&repository, path.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) !=
      0) {
    return unexpected(last_error(fmt::format("cannot open git repository {}", path.string())));
  }
  if (git_repository_is_bare(repository) != 0) {
    git_repository_free(repository);
    return unexpected(fmt::format("{} is a bare git repository, not a store", path.string()));
  }
  return Repository(repository, path);
}

Expected<Repository, std::string> Repository::init(const std::filesystem::path& path) {
  Library::ensure();
  if (exists_at(path)) {
    return open(path);
  }
  git_repository* repository = nullptr;
  if (git_repository_init(&repository, path.c_str(), 0) != 0) {
    return unexpected(last_error(fmt::format("cannot create git repository {}", path.string())));
  }
  return Repository(repository, path);
}

bool Repository::exists_at(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::exists(path / ".git", error);
}

Expected<std::string, std::string> Repository::commit_all(std::string_view message,
                                                          const Signature& signature) {
  git_repository* repository = m_repository.get();
  Index index;
  if (git_repository_index(&index.pointer, repository) != 0) {
    return unexpected(last_error("cannot read the index"));
  }
  // add_all picks up new and changed files (skipping ignored ones);
  // update_all drops the entries of files that were deleted.
  char star[] = "*";
  char* patterns[] = {star};
  const git_strarray pathspec{patterns, 1};
  if (git_index_add_all(index.pointer, &pathspec, GIT_INDEX_ADD_DEFAULT, nullptr, nullptr) != 0 ||
      git_index_update_all(index.pointer, &pathspec, nullptr, nullptr) != 0) {
    return unexpected(last_error("cannot stage the working tree"));
  }
  return commit_index(index.pointer, message, signature);
}

Expected<std::string, std::string> Repository::commit_paths(const std::vector<std::string>& paths,
                                                            std::string_view message,
                                                            const Signature& signature) {
  Index index;
  if (git_repository_index(&index.pointer, m_repository.get()) != 0) {
    return unexpected(last_error("cannot read the index"));
  }
  for (const auto& path : paths) {
    std::error_code error;
    const bool present = std::filesystem::symlink_status(m_workdir / path, error).type() !=
                         std::filesystem::file_type::not_found;
    if (present) {
      if (git_index_add_bypath(index.pointer, path.c_str()) != 0) {
        return unexpected(last_error(fmt::format("cannot stage {}", path)));
      }
    } else if (git_index_remove_bypath(index.pointer, path.c_str()) != 0) {
      return unexpected(last_error(fmt::format("cannot stage the removal of {}", path)));
    }
  }
  return commit_index(index.pointer, message, signature);
}

Expected<std::string, std::string>
Repository::commit_index(git_index* index, std::string_view message, const Signature& signature) {
  git_repository* repository = m_repository.get();
  if (git_index_write(index) != 0) {
    return unexpected(last_error("cannot write the index"));
  }
  git_oid tree_id;
  if (git_index_write_tree(&tree_id, index) != 0) {
    return unexpected(last_error("cannot write the tree"));
  }
  Tree tree;
  if (git_tree_lookup(&tree.pointer, repository, &tree_id) != 0) {
    return unexpected(last_error("cannot read the new tree"));
  }

  Commit parent;
  git_oid head_id;
  const int head_result = git_reference_name_to_id(&head_id, repository, "HEAD");
  if (head_result == 0) {
    if (git_commit_lookup(&parent.pointer, repository, &head_id) != 0) {
      return unexpected(last_error("cannot read HEAD's commit"));
    }
  } else if (head_result != GIT_ENOTFOUND) {
    return unexpected(last_error("cannot resolve HEAD"));
  }

  GitSignature author;
  if (git_signature_now(&author.pointer, signature.name.c_str(), signature.email.c_str()) != 0) {
    return unexpected(last_error("invalid commit signature"));
  }
  const git_commit* parents[] = {parent.pointer};
  const std::string text = normalise_message(message);
  git_oid commit_id;
  if (git_commit_create(&commit_id, repository, "HEAD", author.pointer, author.pointer, nullptr,
                        text.c_str(), tree.pointer, parent.pointer != nullptr ? 1 : 0,
                        parents) != 0) {
    return unexpected(last_error("cannot create the commit"));
  }
  return to_hex(commit_id);
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

bool Repository::is_clean() const {
  git_status_options options = GIT_STATUS_OPTIONS_INIT;
  options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
  options.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS;
  StatusList status;
  if (git_status_list_new(&status.pointer, m_repository.get(), &options) != 0) {
    throw Error(last_error("cannot read git status"));
  }
  return git_status_list_entrycount(status.pointer) == 0;
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
