// Session: the store lock, the open repository, and waiting for git.
#include "engine/session.hpp"

#include "base/error.hpp"
#include "store/profile.hpp"
#include "store/temporaries.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <thread>

namespace engram::engine {

git::LockWait lock_wait_from(const config::Settings& settings) {
  git::LockWait wait;
  wait.total = std::chrono::seconds(settings.get_int("git.lock_wait_s"));
  wait.stale_after = std::chrono::seconds(settings.get_int("git.stale_lock_s"));
  return wait;
}

store::Layout layout_from(const config::Settings& settings, const std::filesystem::path& root) {
  store::Layout layout;
  layout.memory_index = settings.get_string("layout.memory_index");
  layout.working = settings.get_string("layout.working");
  layout.core = settings.get_string("layout.core");
  layout.episodic = settings.get_string("layout.episodic");
  layout.semantic = settings.get_string("layout.semantic");
  layout.procedural = settings.get_string("layout.procedural");
  layout.reference = settings.get_string("layout.reference");
  layout.archive = settings.get_string("layout.archive");
  layout.index_json = settings.get_string("layout.index_json");
  layout.state = settings.get_string("layout.state");
  const auto resolved =
      store::resolve_profile(root, settings.get_string("layout.profile"), layout.state);
  store::apply_profile(*resolved.profile, layout);
  return layout;
}

std::string hands_off_reason(const std::filesystem::path& root, const config::Settings& settings) {
  const auto resolved = store::resolve_profile(root, settings.get_string("layout.profile"),
                                               settings.get_string("layout.state"));
  const store::Profile& profile = *resolved.profile;
  if (profile.hands_off.empty()) {
    return {};
  }
  return fmt::format("{}: {}'s memory folder ({}); engram changes nothing in it, because {}. To "
                     "keep it with engram's own rules anyway, set `profile = \"four-layer\"` in "
                     "its [[store]] section",
                     root.string(), profile.agent,
                     resolved.configured ? "configured as profile " + std::string(profile.name)
                                         : resolved.evidence,
                     profile.hands_off);
}

std::string machine_name(const config::Settings& settings) {
  const auto& configured = settings.get_string("git.machine");
  return configured.empty() ? git::host_name() : configured;
}

git::Signature engram_signature(const git::Repository& repository,
                                const config::Settings& settings) {
  return repository.signature_for(git::Signature{settings.get_string("git.author_name"),
                                                 settings.get_string("git.author_email")});
}

git::Signature agent_signature(const config::Settings& settings) {
  git::Signature signature{settings.get_string("git.agent_name"),
                           settings.get_string("git.agent_email")};
  if (signature.name.empty()) {
    signature.name = "agent";
  }
  if (signature.email.empty()) {
    signature.email = "agent@" + git::host_name();
  }
  return signature;
}

Session::Session(std::filesystem::path root, config::Settings settings, store::Layout layout,
                 RunLock lock, git::Repository repository)
    : m_root(std::move(root)), m_settings(std::move(settings)), m_layout(std::move(layout)),
      m_lock(std::move(lock)), m_repository(std::move(repository)) {}

Session Session::open(const std::filesystem::path& root, const config::Settings& settings,
                      std::optional<git::Repository> reuse) {
  if (auto reason = hands_off_reason(root, settings); !reason.empty()) {
    throw Error("{}", reason);
  }
  std::error_code gone;
  const bool reusable =
      reuse && reuse->workdir() == root && std::filesystem::exists(reuse->gitdir() / "HEAD", gone);
  auto repository = reusable ? Expected<git::Repository, std::string>(std::move(*reuse))
                             : git::Repository::open(root);
  if (!repository) {
    throw Error("{}: not an engram store ({}); run `engram init {}` first", root.string(),
                repository.error(), root.string());
  }
  store::Layout layout = layout_from(settings, root);
  RunLock lock(root, layout, lock_wait_from(settings).total);
  // engram's state must never show in `git status`, even in a store whose
  // .gitignore lost the line.
  repository->ensure_excluded("/" + layout.state + "/");
  for (const auto& pattern : store::temporary_patterns()) {
    repository->ensure_excluded(pattern); // nor an editor's swap file or backup
  }
  Session session(root, settings, std::move(layout), std::move(lock),
                  std::move(repository).value());
  // A run stopped between its commit and the index's file leaves the index
  // behind HEAD, and perhaps its index.lock: the lock goes before the wait,
  // the index is brought up to HEAD after it, before anything reads it.
  session.m_repository.drop_dead_index_lock();
  session.wait_for_git();
  // After the wait: a rebase detaches HEAD while it runs.
  if (session.m_repository.head_detached()) {
    throw Error("{}: the store's HEAD is detached at {}: a commit there would be on no branch; "
                "check out the store's branch (`git switch <branch>`) and run again; nothing "
                "was changed",
                root.string(), session.m_repository.head().value_or("?").substr(0, 12));
  }
  session.m_repository.catch_up_index();
  return session;
}

void Session::wait_for_git() {
  const auto waited = git::wait_until_idle(m_repository.gitdir(), lock_wait_from(m_settings));
  if (!waited) {
    throw Error("{}: {}; nothing was changed", m_root.string(), waited.error());
  }
}

git::CommitId Session::commit(std::string_view what, const CommitStep& step) {
  // A lock that stops a step midway costs one more wait; one that keeps
  // coming back is given up on once git.lock_wait_s has passed in all.
  const auto deadline = std::chrono::steady_clock::now() + lock_wait_from(m_settings).total;
  for (;;) {
    wait_for_git();
    auto commit = step(m_repository);
    if (commit) {
      return *commit;
    }
    if (commit.error().locked == git::Locked::no || std::chrono::steady_clock::now() >= deadline) {
      throw Error("{}: {}: {}", m_root.string(), what, commit.error().message);
    }
    spdlog::warn("{}: {}: {}; waiting and trying the whole step again", m_root.string(), what,
                 commit.error().message);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

} // namespace engram::engine
