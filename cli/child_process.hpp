// A program run as a child process with pipes to its standard input and output: the engine that
// `egdb hub --engine` wraps. POSIX only, as the CLI is.
#pragma once

#include <string>
#include <string_view>
#include <sys/types.h>

namespace egdb::cli {

class ChildProcess {
public:
    // Starts `command` with /bin/sh -c, so that it is split and quoted as a shell does (a path
    // with spaces in quotes, arguments), the way GUIs and lidraughts-bot's configuration give
    // engine commands. Its standard error is egdb's. Throws std::runtime_error when the process
    // cannot be started; a command the shell cannot find shows as output closed at once.
    explicit ChildProcess(const std::string& command);
    // Closes the child's input (a Hub engine quits on end of input), waits for it to exit for
    // up to two seconds, then kills it: the child never outlives egdb's use of it.
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    // The read end of the child's standard output, for poll() and read().
    int output_fd() const noexcept { return output_fd_; }
    // Writes `line` and a line break to the child's input. False when the child no longer reads
    // it (the pipe is closed); the caller then learns of the exit from output_fd().
    bool write_line(std::string_view line);

private:
    pid_t pid_ = -1;
    int input_fd_ = -1;
    int output_fd_ = -1;
};

}  // namespace egdb::cli
