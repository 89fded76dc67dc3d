#include "cli/child_process.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace egdb::cli {
namespace {

// Both ends close on exec, so that the child inherits only the ends dup2'd to its 0 and 1.
void make_pipe(int (&fds)[2]) {
    if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
}

// posix_spawn's file actions and attributes, released however the start ends.
struct SpawnActions {
    posix_spawn_file_actions_t actions;
    SpawnActions() { posix_spawn_file_actions_init(&actions); }
    ~SpawnActions() { posix_spawn_file_actions_destroy(&actions); }
    SpawnActions(const SpawnActions&) = delete;
    SpawnActions& operator=(const SpawnActions&) = delete;
};

}  // namespace

ChildProcess::ChildProcess(const std::string& command) {
    int to_child[2];
    int from_child[2];
    make_pipe(to_child);
    try {
        make_pipe(from_child);
    } catch (...) {
        close(to_child[0]);
        close(to_child[1]);
        throw;
    }
    SpawnActions spawn;
    posix_spawn_file_actions_adddup2(&spawn.actions, to_child[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&spawn.actions, from_child[1], STDOUT_FILENO);
    // exec: the shell becomes the engine, so the pid waited for and killed is the engine's.
    const std::string script = "exec " + command;
    char* const argv[] = {const_cast<char*>("sh"), const_cast<char*>("-c"), const_cast<char*>(script.c_str()), nullptr};
    const int rc = posix_spawn(&pid_, "/bin/sh", &spawn.actions, nullptr, argv, environ);
    close(to_child[0]);
    close(from_child[1]);
    if (rc != 0) {
        close(to_child[1]);
        close(from_child[0]);
        throw std::runtime_error("cannot start the engine \"" + command + "\": " + std::strerror(rc));
    }
    input_fd_ = to_child[1];
    output_fd_ = from_child[0];
}

ChildProcess::~ChildProcess() {
    close(input_fd_);
    int status = 0;
    bool exited = false;
    for (int waited_ms = 0; waited_ms < 2000 && !exited; waited_ms += 10) {
        exited = waitpid(pid_, &status, WNOHANG) == pid_;
        if (!exited) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!exited) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
    }
    close(output_fd_);
}

bool ChildProcess::write_line(std::string_view line) {
    std::string text(line);
    text += '\n';
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = write(input_fd_, text.data() + written, text.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;  // EPIPE: SIGPIPE is ignored by the hub command
        written += static_cast<std::size_t>(n);
    }
    return true;
}

}  // namespace egdb::cli
