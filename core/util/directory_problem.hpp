// Why a path given as a database folder cannot be one, in words a user can act on: the path does
// not exist, is a file, or cannot be read (permissions, I/O). Empty when it is a directory.
#pragma once

#include <filesystem>
#include <string>

namespace egdb {

std::string directory_problem(const std::filesystem::path& path);

}  // namespace egdb
