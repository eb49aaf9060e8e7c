// Daemon logging through spdlog, with a custom `%*` flag for the store name.
#include "daemon/log.hpp"

#include <cstdlib>
#include <memory>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace engram::daemon {

namespace {

// The store this thread is working on; lines about no store say "daemon".
thread_local std::string t_store;

// Prints the thread's store name.
class StoreFlag final : public spdlog::custom_flag_formatter {
public:
  void format(const spdlog::details::log_msg& /*message*/, const std::tm& /*time*/,
              spdlog::memory_buf_t& out) override {
    const std::string_view name = t_store.empty() ? std::string_view("daemon") : t_store;
    out.append(name.data(), name.data() + name.size());
  }

  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<StoreFlag>();
  }
};

} // namespace

StoreLogScope::StoreLogScope(std::string store) : m_previous(std::move(t_store)) {
  t_store = std::move(store);
}

StoreLogScope::~StoreLogScope() {
  t_store = std::move(m_previous);
}

void set_up_daemon_logging(spdlog::level::level_enum level) {
  // systemd sets JOURNAL_STREAM when stderr goes to the journal, which adds
  // its own timestamps; launchd's log files and terminals need ours.
  const char* journal = std::getenv("JOURNAL_STREAM");
  const bool stamped = journal == nullptr || *journal == '\0';
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  formatter->add_flag<StoreFlag>('*').set_pattern(stamped ? "%Y-%m-%d %H:%M:%S.%e %l [%*] %v"
                                                          : "%l [%*] %v");
  auto logger =
      std::make_shared<spdlog::logger>("engram", std::make_shared<spdlog::sinks::stderr_sink_mt>());
  logger->set_formatter(std::move(formatter));
  logger->set_level(level);
  logger->flush_on(spdlog::level::trace); // a crash must not eat the last lines
  spdlog::set_default_logger(std::move(logger));
}

} // namespace engram::daemon
