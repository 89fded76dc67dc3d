// A scratch directory for one test or one suite: a fresh, empty folder under the system's
// temporary directory, named after the process and the caller's label so that parallel ctest
// runs and reruns never collide, and removed with everything in it when the object goes.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace egdb::test {

class ScratchDir {
public:
    explicit ScratchDir(const std::string& label)
        : path_(std::filesystem::temp_directory_path() / ("egdb_" + label + "_" + std::to_string(::getpid()))) {
        std::filesystem::remove_all(path_);
        std::filesystem::create_directories(path_);
    }
    ~ScratchDir() {
        std::error_code ec;  // a destructor must not throw; a leftover folder is only untidy
        std::filesystem::remove_all(path_, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    const std::filesystem::path& path() const noexcept { return path_; }
    // A fresh, empty subfolder.
    std::filesystem::path sub(const std::string& name) const {
        const std::filesystem::path p = path_ / name;
        std::filesystem::remove_all(p);
        std::filesystem::create_directories(p);
        return p;
    }

private:
    std::filesystem::path path_;
};

}  // namespace egdb::test
