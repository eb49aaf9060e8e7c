// Real git servers for the sync tests, started by the tests on 127.0.0.1
// only: OpenSSH's sshd serving git through git-shell, and git's smart HTTP
// (git http-backend) behind lighttpd with basic authentication. Each serves
// the bare repositories of one folder, on a free port, until it is stopped
// or killed; the client side is configured as a user would (an ssh config
// file and known_hosts, git's credential helper), through the sandbox's HOME.
#pragma once

#include "lib/process.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <sys/types.h>

namespace engram::test {

// A server program the test starts and stops.
class ServerProcess {
public:
  ServerProcess() = default;
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  // Kills the server and every connection it serves (its process group) with
  // SIGKILL, as a crash or a pulled cable would, and reaps it.
  void kill();

  // Whether it runs.
  bool running() const { return m_pid > 0; }

protected:
  // Starts `args` in a process group of its own, output to `log`, and waits
  // (at most 10 s) until 127.0.0.1:`port` accepts connections.
  void start(const std::vector<std::string>& args, const std::filesystem::path& log, int port);

private:
  pid_t m_pid = -1;
};

// A TCP port on 127.0.0.1 that nothing listens on now.
int free_port();

// Why `program` cannot be run here (its package is not installed); nullopt when it can.
std::optional<std::string> missing_program(const std::filesystem::path& program,
                                           const std::string& package);

// OpenSSH's sshd on 127.0.0.1 serving the bare repositories under `root`
// through git-shell, for one generated user key; the sandbox's ~/.ssh/config
// and known_hosts name that key and the generated host key, and git's
// core.sshCommand in the sandbox's ~/.gitconfig reads them.
class SshGitServer : public ServerProcess {
public:
  // Why it cannot run here; nullopt when it can.
  static std::optional<std::string> unavailable();

  SshGitServer(const Sandbox& sandbox, std::filesystem::path root);

  // Starts sshd again on the same port after kill().
  void restart();

  // The URL of the bare repository `name` under the root.
  std::string url(const std::string& name) const;

  // Makes every git command a connection runs wait until `release` is
  // removed (the connection open, nothing served yet); `waiting` appears
  // when one waits. Without them (the default) commands run at once.
  void stall(const std::filesystem::path& release, const std::filesystem::path& waiting) const;

private:
  std::filesystem::path m_root;
  std::filesystem::path m_dir; // keys, configuration, log
  int m_port = 0;
};

// lighttpd on 127.0.0.1 running git http-backend as a CGI program for the
// bare repositories under `root`, behind basic authentication for one user;
// the password is given to git by its `store` credential helper, configured
// in the sandbox's ~/.gitconfig, never to engram.
class HttpGitServer : public ServerProcess {
public:
  // Why it cannot run here; nullopt when it can.
  static std::optional<std::string> unavailable();

  HttpGitServer(const Sandbox& sandbox, std::filesystem::path root);

  // Starts lighttpd again on the same port after kill().
  void restart();

  // The URL of the bare repository `name` under the root (user, no password).
  std::string url(const std::string& name) const;

  // The user's password, for checking it is stored nowhere in a store.
  static constexpr const char* k_password = "s3cret-for-the-test-only";

private:
  std::filesystem::path m_root;
  std::filesystem::path m_dir; // configuration, users, log
  int m_port = 0;
};

} // namespace engram::test
