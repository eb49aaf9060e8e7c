// git::Repository: staging, committing, status and the commit signature.
#include "git/repository.hpp"
#include "lib/shell.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <git2.h>
#include <set>
#include <sys/resource.h>

namespace fs = std::filesystem;
using engram::git::Repository;
using engram::git::Signature;
using engram::test::TempDir;
using engram::test::write_file;

namespace {

// A fixed signature for tests.
const Signature k_signature{"Test", "test@example.com"};

// A new repository in `dir`, which must succeed.
Repository make_repository(const TempDir& dir) {
  auto repository = Repository::init(dir.path());
  REQUIRE(repository.has_value());
  return std::move(repository).value();
}

// The repository in `dir`, opened afresh, which must succeed.
Repository make_repository_at(const TempDir& dir) {
  auto repository = Repository::open(dir.path());
  REQUIRE(repository.has_value());
  return std::move(repository).value();
}

// Commits everything, which must succeed, and returns the id.
std::string commit(Repository& repository, const std::string& message = "test: commit") {
  auto id = repository.commit_all(message, k_signature);
  INFO((id ? std::string() : id.error().message));
  REQUIRE(id.has_value());
  REQUIRE(id->has_value());
  return **id;
}

} // namespace

TEST_CASE("a new repository has no HEAD commit and an empty one is clean") {
  const TempDir dir;
  const Repository repository = make_repository(dir);
  CHECK(Repository::exists_at(dir.path()));
  CHECK_FALSE(repository.head().has_value());
  CHECK(repository.is_clean());
  CHECK(repository.workdir() == dir.path());
}

TEST_CASE("commit_all makes the first commit and leaves the working tree clean") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  write_file(dir / "WORKING.md", "# now\n");
  write_file(dir / "semantic" / "a.md", "A.\n");
  CHECK_FALSE(repository.is_clean());

  const std::string id = commit(repository);
  CHECK(id.size() == 40);
  CHECK(repository.head() == id);
  CHECK(repository.is_clean());
}

TEST_CASE("an index left behind HEAD by a stopped run is brought up to it") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  for (const char* name : {"a.md", "b.md", "c.md"}) {
    write_file(dir / "semantic" / name, std::string("# ") + name + "\n");
  }
  commit(repository);
  write_file(dir / "semantic" / "b.md", "# b, changed\n");
  fs::remove(dir / "semantic" / "c.md");
  write_file(dir / "semantic" / "d.md", "# d\n");
  const fs::path index = dir / ".git" / "index";
  const fs::path marker = dir / ".git" / "engram-index-behind";
  fs::copy_file(index, dir / "index.before");
  commit(repository);
  CHECK_FALSE(fs::exists(marker)); // removed with the index in place

  // As a process killed after HEAD moved leaves it: the index from before
  // the commit, and the marker.
  fs::copy_file(dir / "index.before", index, fs::copy_options::overwrite_existing);
  write_file(marker, "");
  const fs::path lock = dir / ".git" / "index.lock";
  write_file(lock, "half an index"); // its writer died with the process
  auto reopened = Repository::open(dir.path());
  REQUIRE(reopened.has_value());
  CHECK_FALSE(reopened->is_clean()); // the index is behind: c.md looks staged, b.md and d.md not
  auto again = Repository::open(dir.path());
  REQUIRE(again.has_value());
  again->drop_dead_index_lock();
  CHECK_FALSE(fs::exists(lock));
  again->catch_up_index();
  CHECK_FALSE(fs::exists(marker));
  CHECK(again->is_clean());
  CHECK(Repository::open(dir.path())->is_clean()); // as written to disk
  again->catch_up_index();                         // no marker: nothing to do
  CHECK(again->is_clean());
}

TEST_CASE("a commit after an index that could not be written leaves the whole index at HEAD") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  write_file(dir / "a.md", "A.\n");
  write_file(dir / "b.md", "B.\n");
  commit(repository);
  const fs::path index = dir / ".git" / "index";
  const fs::path marker = dir / ".git" / "engram-index-behind";
  const TempDir saved;
  fs::copy_file(index, saved / "index.before");
  write_file(dir / "a.md", "A, changed.\n");
  REQUIRE(repository.commit_paths({"a.md"}, "test: a", k_signature).has_value());

  // What a commit leaves when its index write met index.lock held by the
  // user's `git status`, once that status has written the index it read: the
  // index from before the commit, and the marker. The next commit, of another
  // file, is made by the same repository, which reads that index again.
  fs::copy_file(saved / "index.before", index, fs::copy_options::overwrite_existing);
  write_file(marker, "");
  write_file(dir / "b.md", "B, changed.\n");
  REQUIRE(repository.commit_paths({"b.md"}, "test: b", k_signature).has_value());
  CHECK(make_repository_at(dir).is_clean()); // a.md is at HEAD in the index too
  CHECK_FALSE(fs::exists(marker));
  const auto status =
      engram::test::shell("git -C '" + dir.path().string() + "' status --porcelain");
  CHECK(status.ok);
  INFO(status.out);
  CHECK(status.out.empty());
}

TEST_CASE("commit_all stages edits and deletions on top of HEAD") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  write_file(dir / "a.md", "A.\n");
  write_file(dir / "b.md", "B.\n");
  const std::string first = commit(repository);

  write_file(dir / "a.md", "A, changed.\n");
  fs::remove(dir / "b.md");
  CHECK_FALSE(repository.is_clean());
  const std::string second = commit(repository);
  CHECK(second != first);
  CHECK(repository.head() == second);
  CHECK(repository.is_clean());
}

TEST_CASE("a submodule's own changes leave the store clean, as they are not its changes") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  write_file(dir / "a.md", "A.\n");
  write_file(dir / "tools" / "README.md", "tools\n");
  const auto git = [&](const std::string& folder, const std::string& args) {
    const auto done = engram::test::shell("git -C '" + folder +
                                          "' -c user.name=T -c "
                                          "user.email=t@example.com " +
                                          args);
    INFO(done.out);
    REQUIRE(done.ok);
  };
  const std::string nested = (dir / "tools").string();
  git(nested, "init -q");
  git(nested, "add README.md");
  git(nested, "commit -q -m tools");
  git(dir.path().string(), "add a.md tools"); // tools as a gitlink
  git(dir.path().string(), "commit -q -m store");
  REQUIRE(repository.is_clean());
  write_file(dir / "tools" / "README.md", "tools, changed in the submodule\n");
  CHECK(repository.changes().empty());
  CHECK(repository.is_clean());
  write_file(dir / "a.md", "A, changed.\n");
  CHECK_FALSE(repository.is_clean());
}

TEST_CASE("commit_all leaves ignored files out and they do not make the tree dirty") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  write_file(dir / ".gitignore", ".engram/\n");
  write_file(dir / ".engram" / "usage.log", "private\n");
  write_file(dir / "a.md", "A.\n");
  commit(repository);
  CHECK(repository.is_clean());
  write_file(dir / ".engram" / "usage.log", "more private\n");
  CHECK(repository.is_clean());
}

TEST_CASE("open finds an existing repository but never one in a parent folder") {
  const TempDir dir;
  {
    Repository repository = make_repository(dir);
    write_file(dir / "a.md", "A.\n");
    commit(repository);
  }
  auto reopened = Repository::open(dir.path());
  REQUIRE(reopened.has_value());
  CHECK(reopened->head().has_value());

  fs::create_directories(dir / "sub");
  const auto nested = Repository::open(dir / "sub");
  REQUIRE_FALSE(nested.has_value());
  CHECK_THAT(nested.error(), Catch::Contains("sub"));
}

TEST_CASE("open on a plain folder fails with libgit2's message") {
  const TempDir dir;
  const auto repository = Repository::open(dir.path());
  REQUIRE_FALSE(repository.has_value());
  CHECK_THAT(repository.error(), Catch::Contains("cannot open git repository"));
  CHECK(repository.error().size() >
        std::string("cannot open git repository ").size() + dir.path().string().size() + 2);
}

TEST_CASE("signature_for prefers the repository's own user, then the configured one") {
  const TempDir dir;
  const Repository repository = make_repository(dir);

  const Signature fallback = repository.signature_for({});
  CHECK(fallback.name == "engram");
  CHECK(fallback.email.starts_with("engram@"));
  CHECK(fallback.email == engram::git::default_signature().email);

  const Signature configured = repository.signature_for({"Ada", "ada@example.com"});
  CHECK(configured.name == "Ada");
  CHECK(configured.email == "ada@example.com");

  {
    std::ofstream config(dir / ".git" / "config", std::ios::app);
    config << "[user]\n\tname = Store Owner\n";
  }
  const Signature local = repository.signature_for({"Ada", "ada@example.com"});
  CHECK(local.name == "Store Owner");
  CHECK(local.email == "ada@example.com");
}

TEST_CASE("commit_paths commits exactly the named paths, removals included, and nothing else") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  write_file(dir / "semantic" / "kept.md", "Kept.\n");
  write_file(dir / "episodic" / "gone.md", "Gone.\n");
  write_file(dir / "WORKING.md", "# now\n");
  commit(repository);

  write_file(dir / "semantic" / "kept.md", "Kept, and more.\n");
  write_file(dir / "semantic" / "new.md", "New.\n");
  fs::remove(dir / "episodic" / "gone.md");
  write_file(dir / "WORKING.md", "# now, edited by the agent meanwhile\n");
  write_file(dir / "untracked.md", "Not ours.\n");

  auto id = repository.commit_paths({"semantic/kept.md", "semantic/new.md", "episodic/gone.md"},
                                    "consolidate: test", k_signature);
  INFO((id ? std::string() : id.error().message));
  REQUIRE(id.has_value());
  CHECK(repository.head() == *id);
  // The agent's edit and the untracked file are all that is left.
  CHECK_FALSE(repository.is_clean());
  fs::remove(dir / "untracked.md");
  write_file(dir / "WORKING.md", "# now\n");
  CHECK(repository.is_clean());
}

TEST_CASE("commit_paths accepts a removal of a path the index never had") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  write_file(dir / "a.md", "A.\n");
  commit(repository);
  write_file(dir / "b.md", "B.\n");
  auto id = repository.commit_paths({"b.md", "never-there.md"}, "test: removal", k_signature);
  INFO((id ? std::string() : id.error().message));
  REQUIRE(id.has_value());
  CHECK(repository.is_clean());
}

TEST_CASE("staging what HEAD already holds commits nothing, and the index is still written") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  write_file(dir / "a.md", "A.\n");
  const std::string first = commit(repository);
  auto again = repository.commit_paths({"a.md"}, "test: nothing new", k_signature);
  REQUIRE(again.has_value());
  CHECK_FALSE(again->has_value());
  CHECK(repository.head() == first);
  auto all = repository.commit_all("test: nothing new", k_signature);
  REQUIRE(all.has_value());
  CHECK_FALSE(all->has_value());
}

TEST_CASE("a commit whose object cannot be written fails, and HEAD stays where it was") {
  const TempDir dir;
  std::string second;
  {
    Repository repository = make_repository(dir);
    write_file(dir / "a.md", "A.\n");
    commit(repository);
    write_file(dir / "b.md", "B.\n");
    second = commit(repository);
  }
  // Every object so far moves to an alternate store, which git reads but
  // never writes; each folder a new loose object would need is a file. The
  // next commit's tree is the first one's, so only the commit object is
  // new, and writing it fails, as on a full disk.
  const fs::path objects = dir / ".git" / "objects";
  const fs::path elsewhere = dir.path().parent_path() / (dir.path().filename().string() + "-alt");
  fs::create_directories(elsewhere);
  for (const auto& entry : fs::directory_iterator(objects)) {
    if (entry.path().filename().string().size() == 2) {
      fs::rename(entry.path(), elsewhere / entry.path().filename());
    }
  }
  write_file(objects / "info" / "alternates", elsewhere.string() + "\n");
  const char* hex = "0123456789abcdef";
  for (int i = 0; i < 256; ++i) {
    write_file(objects / std::string{hex[i / 16], hex[i % 16]}, "");
  }
  fs::remove(dir / "b.md");
  {
    Repository repository = make_repository_at(dir);
    auto failed = repository.commit_all("test: cannot be written", k_signature);
    REQUIRE_FALSE(failed.has_value());
    CHECK_THAT(failed.error().message, Catch::Contains("cannot create the commit"));
    CHECK(repository.head() == second);
  }

  // Writable again: the commit is made, and it can be read.
  for (int i = 0; i < 256; ++i) {
    fs::remove(objects / std::string{hex[i / 16], hex[i % 16]});
  }
  Repository repository = make_repository_at(dir);
  const std::string third = commit(repository, "test: written");
  CHECK(third != second);
  git_repository* raw = nullptr;
  REQUIRE(git_repository_open(&raw, dir.path().c_str()) == 0);
  git_oid id;
  git_commit* made = nullptr;
  REQUIRE(git_oid_fromstr(&id, third.c_str()) == 0);
  CHECK(git_commit_lookup(&made, raw, &id) == 0);
  git_commit_free(made);
  git_repository_free(raw);
  fs::remove_all(elsewhere);
}

TEST_CASE("a commit can have an author other than its committer") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  write_file(dir / "a.md", "A.\n");
  const Signature agent{"agent", "agent@example.com"};
  auto id = repository.commit_all("snapshot: test", agent, k_signature);
  REQUIRE(id.has_value());
  REQUIRE(id->has_value());
  CHECK(repository.head() == *id);
}

TEST_CASE("changes lists what the working tree and the index changed since HEAD, by path") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  write_file(dir / "kept.md", "K.\n");
  write_file(dir / "edited.md", "E.\n");
  write_file(dir / "gone.md", "G.\n");
  write_file(dir / ".gitignore", "*.log\n");
  commit(repository);
  CHECK(repository.changes().empty());

  write_file(dir / "edited.md", "E, edited.\n");
  fs::remove(dir / "gone.md");
  write_file(dir / "sub" / "new.md", "N.\n");
  write_file(dir / "noise.log", "ignored\n");
  const auto changes = repository.changes();
  REQUIRE(changes.size() == 3);
  CHECK(changes[0].path == "edited.md");
  CHECK(changes[0].kind == engram::git::ChangeKind::modified);
  CHECK(changes[1].path == "gone.md");
  CHECK(changes[1].kind == engram::git::ChangeKind::deleted);
  CHECK(changes[2].path == "sub/new.md");
  CHECK(changes[2].kind == engram::git::ChangeKind::added);
}

TEST_CASE("changes among named paths agree with the whole status on those paths") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  write_file(dir / "kept.md", "K.\n");
  write_file(dir / "edited.md", "E.\n");
  write_file(dir / "gone.md", "G.\n");
  write_file(dir / "other.md", "O.\n");
  write_file(dir / "sub" / "was-a-file", "F.\n");
  write_file(dir / ".gitignore", "*.log\n");
  commit(repository);

  write_file(dir / "edited.md", "E, edited.\n");
  write_file(dir / "other.md", "O, edited.\n"); // changed, but not named
  fs::remove(dir / "gone.md");
  write_file(dir / "sub" / "new.md", "N.\n");
  write_file(dir / "noise.log", "ignored\n");
  const std::vector<std::string> named{"sub/new.md", "kept.md", "edited.md",    "gone.md",
                                       "noise.log",  "sub",     "never-was.md", "edited.md"};
  const auto among = repository.changes(&named);
  REQUIRE(among.size() == 3);
  CHECK(among[0].path == "edited.md");
  CHECK(among[0].kind == engram::git::ChangeKind::modified);
  CHECK(among[1].path == "gone.md");
  CHECK(among[1].kind == engram::git::ChangeKind::deleted);
  CHECK(among[2].path == "sub/new.md");
  CHECK(among[2].kind == engram::git::ChangeKind::added);
  // The whole status sees the unnamed edit too, and the same for the rest.
  const auto all = repository.changes();
  REQUIRE(all.size() == 4);
  CHECK(all[2].path == "other.md");
  const std::vector<std::string> none;
  CHECK(repository.changes(&none).empty());
}

TEST_CASE("stage_paths with Unreadable::skip leaves a path it cannot stage for the next commit") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  write_file(dir / "a.md", "A.\n");
  commit(repository);
  write_file(dir / "b.md", "B.\n");
  // A folder where a file is named cannot be staged as one, as a file being
  // rewritten this instant cannot be read whole.
  write_file(dir / "unreadable" / "c.md", "C.\n");
  const auto failed = repository.stage_paths({"b.md", "unreadable"}, engram::git::Unreadable::fail);
  CHECK_FALSE(failed.has_value());
  const auto staged = repository.stage_paths({"b.md", "unreadable"}, engram::git::Unreadable::skip);
  REQUIRE(staged.has_value());
  CHECK(*staged == std::vector<std::string>{"b.md"});
  const auto id = repository.commit_staged("test: partial", k_signature, k_signature);
  REQUIRE(id.has_value());
  CHECK(id->has_value());
}

TEST_CASE("blobs written to the object database read back byte for byte") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  const std::string bytes("a\0b\r\nc", 6);
  const auto id = repository.write_blob(bytes);
  REQUIRE(id.has_value());
  CHECK(id->size() == 40);
  CHECK(repository.read_blob(*id) == bytes);
  CHECK_FALSE(repository.read_blob(std::string(40, '0')).has_value());
  CHECK_FALSE(repository.read_blob("not an id").has_value());
}

TEST_CASE(
    "a run's many blobs are one pack git reads, and a few stay loose as git add leaves them") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  const std::string git = "git -C '" + dir.path().string() + "' ";
  const auto loose_and_packed = [&] {
    return engram::test::shell(git + "count-objects -v | grep -E '^(count|in-pack):'").out;
  };
  std::vector<std::string> texts;
  for (int i = 0; i < 300; ++i) {
    texts.push_back("- Fact " + std::to_string(i) + " of note " + std::to_string(i % 7) + "\n");
  }
  texts.push_back(texts.front()); // the same bytes twice: one object, the id given twice
  const std::vector<std::string_view> many(texts.begin(), texts.end());
  const auto ids = repository.write_blobs(many);
  REQUIRE(ids.has_value());
  REQUIRE(ids->size() == many.size());
  CHECK(ids->back() == ids->front());
  CHECK(loose_and_packed() == "count: 0\nin-pack: 300\n");
  for (std::size_t i = 0; i < many.size(); ++i) {
    CHECK(repository.read_blob((*ids)[i]) == texts[i]); // this process sees the pack at once
  }
  const auto shown = engram::test::shell(git + "cat-file -p " + (*ids)[42]);
  CHECK(shown.ok);
  CHECK(shown.out == texts[42]);
  CHECK(engram::test::shell(git + "fsck --full --strict").ok);

  const std::vector<std::string_view> few = {"one\n", "two\n", "three\n"};
  const auto few_ids = repository.write_blobs(few);
  REQUIRE(few_ids.has_value());
  CHECK(loose_and_packed() == "count: 3\nin-pack: 300\n");
  CHECK(repository.read_blob(few_ids->at(2)) == "three\n");
}

TEST_CASE("a blob that cannot be written fails with the system's reason, not an earlier error") {
  // libgit2 1.5 fails a loose object's stream without a message of its own
  // when write(2) fails before the end (a blob larger than its buffer);
  // what it said last is then stale.
  const TempDir dir;
  std::string large;
  for (int i = 0; large.size() < 100000; ++i) {
    large += "- Fact " + std::to_string(i) + " of a long note that does not fit.\n";
  }
  Repository repository = make_repository(dir);
  git_error_set_str(GIT_ERROR_CONFIG, "a stale error from an earlier lookup");
  // Files may not grow at all for a moment: write(2) fails with EFBIG, as
  // it fails with ENOSPC on a full disk.
  struct sigaction ignore {};
  struct sigaction previous {};
  ignore.sa_handler = SIG_IGN;
  REQUIRE(::sigaction(SIGXFSZ, &ignore, &previous) == 0);
  rlimit limit{};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &limit) == 0);
  const rlimit none{0, limit.rlim_max};
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &none) == 0);
  const auto failed = repository.write_blob(large);
  ::setrlimit(RLIMIT_FSIZE, &limit);
  ::sigaction(SIGXFSZ, &previous, nullptr);

  REQUIRE_FALSE(failed.has_value());
  INFO(failed.error().message);
  CHECK_THAT(failed.error().message, Catch::Contains("cannot store a blob") &&
                                         Catch::Contains(std::strerror(EFBIG)) &&
                                         !Catch::Contains("stale"));
  // And with room again, it is written.
  CHECK(repository.write_blob(large).has_value());
}

TEST_CASE("ensure_excluded adds a pattern to .git/info/exclude once") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  repository.ensure_excluded("/.engram/");
  repository.ensure_excluded("/.engram/");
  write_file(dir / ".engram" / "pending.json", "{}\n");
  CHECK(repository.is_clean());
  const std::string exclude = engram::test::read_file(repository.gitdir() / "info" / "exclude");
  CHECK(std::count(exclude.begin(), exclude.end(), '\n') >= 1);
  CHECK(exclude.find("/.engram/\n") == exclude.rfind("/.engram/\n"));
}

TEST_CASE("enclosing finds the repository a folder lies inside, and none for a plain folder") {
  const TempDir dir;
  make_repository(dir);
  CHECK(Repository::enclosing(dir / "memory") == dir.path());
  const TempDir plain;
  CHECK_FALSE(Repository::enclosing(plain / "memory").has_value());
}

namespace {

// An Admit that refuses any file holding the word SECRET.
bool no_secret(const std::string& /*path*/, std::string_view bytes) {
  return bytes.find("SECRET") == std::string_view::npos;
}

// The paths of repository.changes(), in order.
std::vector<std::string> changed_paths(const Repository& repository) {
  std::vector<std::string> paths;
  for (const auto& change : repository.changes()) {
    paths.push_back(change.path);
  }
  return paths;
}

} // namespace

TEST_CASE("stage_paths leaves out what admit refuses: a new file stays new, an edit keeps HEAD's "
          "version") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  write_file(dir / "a.md", "A.\n");
  commit(repository);
  write_file(dir / "a.md", "A, now with a SECRET.\n");
  write_file(dir / "b.md", "SECRET\n");
  write_file(dir / "c.md", "C.\n");

  const auto staged =
      repository.stage_paths({"a.md", "b.md", "c.md"}, engram::git::Unreadable::skip, no_secret);
  REQUIRE(staged.has_value());
  CHECK(*staged == std::vector<std::string>{"c.md"});
  const auto id = repository.commit_staged("test: admitted", k_signature, k_signature);
  REQUIRE(id.has_value());
  REQUIRE(id->has_value());
  // Still changed, as git sees it: the held-back entry has no stat data to fool it.
  CHECK(changed_paths(repository) == std::vector<std::string>{"a.md", "b.md"});
  // Once the file is fine, it is staged like any other.
  write_file(dir / "a.md", "A, edited.\n");
  const auto later = repository.stage_paths({"a.md"}, engram::git::Unreadable::skip, no_secret);
  REQUIRE(later.has_value());
  CHECK(*later == std::vector<std::string>{"a.md"});
}

TEST_CASE(
    "stage_paths asks again about the bytes as staged when they differ from those it checked") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  // `text` makes git store LF where the file has CRLF: the staged blob is not
  // the bytes read from disk, as when the file changes between the two.
  write_file(dir / ".gitattributes", "*.md text\n");
  commit(repository);
  write_file(dir / "crlf.md", "Line one.\r\nLine two.\r\n");
  write_file(dir / "lf.md", "Line one.\n");
  // Accepts each path the first time it is shown, refuses it after.
  std::vector<std::string> seen;
  std::set<std::string> asked;
  const engram::git::Admit first_look_only = [&](const std::string& path, std::string_view bytes) {
    seen.push_back(path + ":" + std::string(bytes));
    return asked.insert(path).second;
  };
  const auto staged =
      repository.stage_paths({"crlf.md", "lf.md"}, engram::git::Unreadable::skip, first_look_only);
  REQUIRE(staged.has_value());
  // lf.md was staged as read; crlf.md was shown again as staged, refused, and left out.
  CHECK(*staged == std::vector<std::string>{"lf.md"});
  CHECK(seen == std::vector<std::string>{"crlf.md:Line one.\r\nLine two.\r\n",
                                         "crlf.md:Line one.\nLine two.\n", "lf.md:Line one.\n"});
}

TEST_CASE("commit_all leaves out what admit refuses, even a file the index already had") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  write_file(dir / "a.md", "A.\n");
  commit(repository);
  write_file(dir / "b.md", "B.\n");
  write_file(dir / "staged-secret.md", "SECRET\n");
  write_file(dir / "sub" / "new-secret.md", "SECRET\n");
  // As the user's `git add` would: the index already holds the secret.
  REQUIRE(repository.stage_paths({"staged-secret.md"}, engram::git::Unreadable::fail).has_value());

  const auto id = repository.commit_all("test: admitted", k_signature, k_signature, no_secret);
  REQUIRE(id.has_value());
  REQUIRE(id->has_value());
  CHECK(changed_paths(repository) ==
        std::vector<std::string>{"staged-secret.md", "sub/new-secret.md"});
  // Not left in the index either: committing the index as it is adds nothing.
  const auto index = repository.commit_staged("test: the index", k_signature, k_signature);
  REQUIRE(index.has_value());
  CHECK_FALSE(index->has_value());
}
