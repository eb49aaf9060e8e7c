// Real git servers for the sync tests (see git_servers.hpp).
#include "lib/git_servers.hpp"

#include "lib/temp_dir.hpp"

#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <netinet/in.h>
#include <pwd.h>
#include <set>
#include <spawn.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace engram::test {
namespace fs = std::filesystem;

namespace {

constexpr const char* k_sshd = "/usr/sbin/sshd";
constexpr const char* k_lighttpd = "/usr/sbin/lighttpd";
constexpr const char* k_http_backend = "/usr/lib/git-core/git-http-backend";
constexpr const char* k_http_user = "engram";

// Whether something accepts connections on 127.0.0.1:`port` now.
bool accepts(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    return false;
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool connected =
      ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return connected;
}

// The parent of process `pid` as /proc says; -1 when it is gone.
pid_t parent_of(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) {
    return -1;
  }
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
  const auto close = line.rfind(')');
  if (close == std::string::npos || close + 4 > line.size()) {
    return -1;
  }
  return static_cast<pid_t>(std::atoi(line.c_str() + close + 4));
}

// Every process below `root` now: sshd's connections leave its process
// group (setsid), so a group kill would leave them serving.
std::set<pid_t> descendants(pid_t root) {
  std::set<pid_t> found{root};
  bool grew = true;
  while (grew) {
    grew = false;
    for (const auto& entry : fs::directory_iterator("/proc")) {
      const std::string name = entry.path().filename().string();
      if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) {
        continue;
      }
      const pid_t pid = static_cast<pid_t>(std::stoi(name));
      if (!found.contains(pid) && found.contains(parent_of(pid))) {
        found.insert(pid);
        grew = true;
      }
    }
  }
  return found;
}

// Runs a set-up program that must succeed.
void must_run(const std::vector<std::string>& args, const Environment& changes = {}) {
  const Result result = run(args, changes);
  if (result.exit_code != 0) {
    throw std::runtime_error(args.front() + " failed: " + result.out + result.err);
  }
}

// Writes `text` to `path` with mode `mode`.
void write_mode(const fs::path& path, const std::string& text, fs::perms mode) {
  fs::create_directories(path.parent_path());
  write_file(path, text);
  fs::permissions(path, mode);
}

// This process's user name, as the ssh URL names it.
std::string user_name() {
  const passwd* entry = ::getpwuid(::getuid());
  if (entry == nullptr) {
    throw std::runtime_error("this user has no name in the password database");
  }
  return entry->pw_name;
}

// Sets `key` in the sandbox's ~/.gitconfig, as `git config --global` does.
void git_global(const Sandbox& sandbox, const std::string& key, const std::string& value) {
  must_run({"git", "config", "--global", key, value}, sandbox.environment());
}

} // namespace

ServerProcess::~ServerProcess() {
  kill();
}

void ServerProcess::start(const std::vector<std::string>& args, const fs::path& log, int port) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  std::vector<std::string> strings = args;
  std::vector<char*> argv;
  for (auto& s : strings) {
    argv.push_back(s.data());
  }
  argv.push_back(nullptr);
  const int spawned = ::posix_spawn(&m_pid, argv[0], &actions, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) {
    m_pid = -1;
    throw std::runtime_error("cannot start " + args.front() + ": " + std::strerror(spawned));
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!accepts(port)) {
    int status = 0;
    if (::waitpid(m_pid, &status, WNOHANG) == m_pid) {
      m_pid = -1;
      throw std::runtime_error(args.front() + " exited at start: " + read_file(log));
    }
    if (std::chrono::steady_clock::now() > deadline) {
      kill();
      throw std::runtime_error(args.front() + " did not listen within 10 s: " + read_file(log));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

void ServerProcess::kill() {
  if (m_pid <= 0) {
    return;
  }
  // Twice: a connection forked while the first list was taken is in the second.
  for (int pass = 0; pass < 2; ++pass) {
    for (const pid_t pid : descendants(m_pid)) {
      ::kill(pid, SIGKILL);
    }
  }
  int status = 0;
  while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
  }
  m_pid = -1;
}

int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = 0;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (fd < 0 || ::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    throw std::runtime_error(std::string("cannot find a free port: ") + std::strerror(errno));
  }
  ::close(fd);
  return ntohs(address.sin_port);
}

std::optional<std::string> missing_program(const fs::path& program, const std::string& package) {
  if (::access(program.c_str(), X_OK) == 0) {
    return std::nullopt;
  }
  return program.string() + " is missing: install Debian's " + package +
         " package (`make setup` does)";
}

std::optional<std::string> SshGitServer::unavailable() {
  if (auto missing = missing_program(k_sshd, "openssh-server")) {
    return missing;
  }
  return missing_program("/usr/bin/ssh", "openssh-client");
}

SshGitServer::SshGitServer(const Sandbox& sandbox, fs::path root)
    : m_root(std::move(root)), m_dir(sandbox.root() / "sshd"), m_port(free_port()) {
  fs::create_directories(m_dir);
  const fs::path ssh = sandbox.root() / "home" / ".ssh";
  fs::create_directories(ssh);
  fs::permissions(ssh, fs::perms::owner_all);
  must_run({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "host", "-f",
            (m_dir / "host_key").string()});
  must_run({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "engram-test", "-f",
            (ssh / "id_engram").string()});
  // Every connection runs this: git-shell, which serves git and nothing else,
  // after waiting while a test holds the server (stall()).
  write_mode(m_dir / "serve",
             "#!/bin/sh\nif [ -f '" + (m_dir / "stall").string() + "' ]; then\n" +
                 "  release=$(sed -n 1p '" + (m_dir / "stall").string() + "')\n" +
                 "  waiting=$(sed -n 2p '" + (m_dir / "stall").string() + "')\n" +
                 "  : > \"$waiting\"\n  while [ -e \"$release\" ]; do sleep 0.02; done\nfi\n" +
                 "exec git-shell -c \"$SSH_ORIGINAL_COMMAND\"\n",
             fs::perms::owner_all);
  write_mode(m_dir / "authorized_keys",
             "command=\"" + (m_dir / "serve").string() + "\",restrict " +
                 read_file(ssh / "id_engram.pub"),
             fs::perms::owner_read | fs::perms::owner_write);
  write_file(m_dir / "sshd_config",
             "Port " + std::to_string(m_port) + "\nListenAddress 127.0.0.1\nHostKey " +
                 (m_dir / "host_key").string() + "\nPidFile none\nUsePAM no\n" +
                 "AuthorizedKeysFile " + (m_dir / "authorized_keys").string() + "\n" +
                 "StrictModes no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n" +
                 "PermitRootLogin prohibit-password\nAllowTcpForwarding no\n" +
                 "X11Forwarding no\nPermitTTY no\nPrintMotd no\nLogLevel VERBOSE\n" +
                 // The session's shell reads the startup files of HOME: the
                 // sandbox's, so that the user's own (a pyenv rehash waiting on
                 // a stale lock, say) cannot hold a connection up.
                 "SetEnv HOME=" + (sandbox.root() / "home").string() + "\n");
  // The client as a user sets it up: a key, the server's host key known, no prompts.
  write_file(ssh / "known_hosts",
             "[127.0.0.1]:" + std::to_string(m_port) + " " + read_file(m_dir / "host_key.pub"));
  write_file(ssh / "config", "Host 127.0.0.1\n  IdentityFile " + (ssh / "id_engram").string() +
                                 "\n  IdentitiesOnly yes\n  UserKnownHostsFile " +
                                 (ssh / "known_hosts").string() +
                                 "\n  StrictHostKeyChecking yes\n  BatchMode yes\n");
  git_global(sandbox, "core.sshCommand", "ssh -F " + (ssh / "config").string());
  if (::geteuid() == 0) {
    fs::create_directories("/run/sshd"); // sshd's privilege separation folder, as root
  }
  restart();
}

void SshGitServer::restart() {
  start({k_sshd, "-D", "-e", "-f", (m_dir / "sshd_config").string()}, m_dir / "sshd.log", m_port);
}

std::string SshGitServer::url(const std::string& name) const {
  return "ssh://" + user_name() + "@127.0.0.1:" + std::to_string(m_port) + (m_root / name).string();
}

void SshGitServer::stall(const fs::path& release, const fs::path& waiting) const {
  write_file(m_dir / "stall", release.string() + "\n" + waiting.string() + "\n");
}

std::optional<std::string> HttpGitServer::unavailable() {
  if (auto missing = missing_program(k_lighttpd, "lighttpd")) {
    return missing;
  }
  return missing_program(k_http_backend, "git");
}

HttpGitServer::HttpGitServer(const Sandbox& sandbox, fs::path root)
    : m_root(std::move(root)), m_dir(sandbox.root() / "httpd"), m_port(free_port()) {
  fs::create_directories(m_dir / "www");
  write_mode(m_dir / "users", std::string(k_http_user) + ":" + k_password + "\n",
             fs::perms::owner_read | fs::perms::owner_write);
  write_file(m_dir / "lighttpd.conf",
             "server.modules = (\"mod_auth\", \"mod_authn_file\", \"mod_alias\", \"mod_setenv\", "
             "\"mod_cgi\", \"mod_accesslog\")\n"
             "server.document-root = \"" +
                 (m_dir / "www").string() +
                 "\"\nserver.bind = \"127.0.0.1\"\nserver.port = " + std::to_string(m_port) +
                 "\nserver.errorlog = \"" + (m_dir / "error.log").string() +
                 "\"\naccesslog.filename = \"" + (m_dir / "access.log").string() +
                 "\"\nauth.backend = \"plain\"\nauth.backend.plain.userfile = \"" +
                 (m_dir / "users").string() + "\"\nalias.url = (\"/git\" => \"" + k_http_backend +
                 "\")\n$HTTP[\"url\"] =~ \"^/git\" {\n  cgi.assign = (\"\" => \"\")\n"
                 "  setenv.set-environment = (\"GIT_PROJECT_ROOT\" => \"" +
                 m_root.string() +
                 "\", \"GIT_HTTP_EXPORT_ALL\" => \"1\", \"PATH\" => \"/usr/bin:/bin\")\n"
                 "  auth.require = (\"\" => (\"method\" => \"basic\", \"realm\" => \"engram\", "
                 "\"require\" => \"valid-user\"))\n}\n");
  // The password is git's to keep, in its credential helper, as a user sets it up.
  const fs::path credentials = sandbox.root() / "home" / ".git-credentials";
  write_mode(credentials,
             "http://" + std::string(k_http_user) + ":" + k_password +
                 "@127.0.0.1:" + std::to_string(m_port) + "\n",
             fs::perms::owner_read | fs::perms::owner_write);
  git_global(sandbox, "credential.helper", "store --file=" + credentials.string());
  restart();
}

void HttpGitServer::restart() {
  start({k_lighttpd, "-D", "-f", (m_dir / "lighttpd.conf").string()}, m_dir / "lighttpd.log",
        m_port);
}

std::string HttpGitServer::url(const std::string& name) const {
  return "http://" + std::string(k_http_user) + "@127.0.0.1:" + std::to_string(m_port) + "/git/" +
         name;
}

} // namespace engram::test
