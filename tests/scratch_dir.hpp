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

// The scratch folder of this test process, removed when the process ends: for fixtures that hand
// out paths (a suite's database, copies a test may damage) rather than own a ScratchDir.
inline const ScratchDir& process_scratch() {
    static const ScratchDir dir("tests");
    return dir;
}

// A fresh, empty folder `name` in the process's scratch folder.
inline std::filesystem::path scratch_path(const std::string& name) { return process_scratch().sub(name); }

}  // namespace egdb::test
