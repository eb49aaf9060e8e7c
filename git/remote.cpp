// Remote: fetching, pushing and the history questions around them (see remote.hpp).
#include "git/remote.hpp"

#include "base/error.hpp"
#include "git/libgit2.hpp"
#include "git/run_git.hpp"

#include <fmt/format.h>

namespace engram::git {
namespace {

using namespace detail;

// The id `hex` names; throws engram::Error when it is no id.
git_oid oid_of(const std::string& hex) {
  git_oid oid;
  if (git_oid_fromstr(&oid, hex.c_str()) != 0) {
    throw Error("'{}' is not a commit id", hex);
  }
  return oid;
}

// Whether git's words say the remote refused a push (it moved on, or a hook
// declined), as opposed to not being reached.
bool refused(const std::string& said) {
  for (const char* sign : {"[rejected]", "[remote rejected]", "non-fast-forward", "fetch first",
                           "pre-receive hook declined", "hook declined"}) {
    if (said.find(sign) != std::string::npos) {
      return true;
    }
  }
  return false;
}

// Runs git's `args` on `repository`, stopped after k_remote_timeout.
GitOutcome run_remote(const Repository& repository, std::vector<std::string> args) {
  return run_git(
      {.gitdir = repository.gitdir(), .args = std::move(args), .timeout = k_remote_timeout});
}

} // namespace

std::string fetched_ref(const std::string& branch) {
  return "refs/engram/remote/" + branch;
}

Expected<std::optional<std::string>, std::string>
fetch(const Repository& repository, const std::string& url, const std::string& branch) {
  // Asked first whether the branch exists: an empty remote is no failure.
  const auto listed =
      run_remote(repository, {"ls-remote", "--heads", "--", url, "refs/heads/" + branch});
  if (!listed.ok) {
    return unexpected(fmt::format("cannot reach {}: {}", url, listed.said));
  }
  if (listed.out.empty()) {
    return std::optional<std::string>{};
  }
  // Forced into engram's own ref: it only ever mirrors the remote, and a
  // rewritten remote is caught by comparing with k_synced_ref, not here.
  const auto fetched =
      run_remote(repository, {"fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--", url,
                              "+refs/heads/" + branch + ":" + fetched_ref(branch)});
  if (!fetched.ok) {
    return unexpected(fmt::format("cannot fetch {} from {}: {}", branch, url, fetched.said));
  }
  auto tip = read_ref(repository, fetched_ref(branch));
  if (!tip) {
    return unexpected(
        fmt::format("fetched {} from {} but {} is missing", branch, url, fetched_ref(branch)));
  }
  return std::optional<std::string>{std::move(*tip)};
}

std::optional<PushFailure> push(const Repository& repository, const std::string& url,
                                const std::string& branch, const std::string& commit) {
  const auto pushed =
      run_remote(repository, {"push", "--quiet", "--", url, commit + ":refs/heads/" + branch});
  if (pushed.ok) {
    return std::nullopt;
  }
  return PushFailure{fmt::format("cannot push to {}: {}", url, pushed.said), refused(pushed.said)};
}

std::optional<std::string> merge_base(const Repository& repository, const std::string& a,
                                      const std::string& b) {
  git_oid base;
  const git_oid one = oid_of(a);
  const git_oid two = oid_of(b);
  const int code = git_merge_base(&base, repository.handle(), &one, &two);
  if (code == GIT_ENOTFOUND) {
    return std::nullopt;
  }
  if (code != 0) {
    throw Error(last_error(fmt::format("cannot find where {} and {} meet", a, b)));
  }
  return to_hex(base);
}

bool contains(const Repository& repository, const std::string& commit,
              const std::string& ancestor) {
  if (commit == ancestor) {
    return true;
  }
  const git_oid tip = oid_of(commit);
  const git_oid older = oid_of(ancestor);
  const int code = git_graph_descendant_of(repository.handle(), &tip, &older);
  if (code < 0) {
    throw Error(last_error(fmt::format("cannot tell whether {} holds {}", commit, ancestor)));
  }
  return code == 1;
}

AheadBehind ahead_behind(const Repository& repository, const std::string& local,
                         const std::string& upstream) {
  AheadBehind out;
  const git_oid one = oid_of(local);
  const git_oid two = oid_of(upstream);
  if (git_graph_ahead_behind(&out.ahead, &out.behind, repository.handle(), &one, &two) != 0) {
    throw Error(last_error(fmt::format("cannot compare {} and {}", local, upstream)));
  }
  return out;
}

std::optional<std::string> read_ref(const Repository& repository, const std::string& name) {
  git_oid id;
  const int code = git_reference_name_to_id(&id, repository.handle(), name.c_str());
  if (code == GIT_ENOTFOUND) {
    return std::nullopt;
  }
  if (code != 0) {
    throw Error(last_error(fmt::format("cannot read {}", name)));
  }
  return to_hex(id);
}

void write_ref(const Repository& repository, const std::string& name, const std::string& commit,
               const std::string& why) {
  Reference ref;
  const git_oid id = oid_of(commit);
  if (git_reference_create(&ref.pointer, repository.handle(), name.c_str(), &id, 1, why.c_str()) !=
      0) {
    throw Error(last_error(fmt::format("cannot point {} at {}", name, commit)));
  }
}

std::optional<std::string> head_branch(const Repository& repository) {
  Reference head;
  if (git_reference_lookup(&head.pointer, repository.handle(), "HEAD") != 0 ||
      git_reference_type(head.pointer) != GIT_REFERENCE_SYMBOLIC) {
    return std::nullopt;
  }
  std::string target = git_reference_symbolic_target(head.pointer);
  constexpr std::string_view k_heads = "refs/heads/";
  if (!target.starts_with(k_heads)) {
    return std::nullopt;
  }
  return target.substr(k_heads.size());
}

std::int64_t commit_time(const Repository& repository, const std::string& commit) {
  Commit found;
  const git_oid id = oid_of(commit);
  if (git_commit_lookup(&found.pointer, repository.handle(), &id) != 0) {
    throw Error(last_error(fmt::format("cannot read commit {}", commit)));
  }
  return git_commit_time(found.pointer);
}

} // namespace engram::git
