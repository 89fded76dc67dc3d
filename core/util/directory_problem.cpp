#include "core/util/directory_problem.hpp"

#include <system_error>

namespace egdb {

std::string directory_problem(const std::filesystem::path& path) {
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(path, ec);
    if (status.type() == std::filesystem::file_type::not_found) return "does not exist";
    if (ec) return "cannot be read: " + ec.message();
    if (status.type() != std::filesystem::file_type::directory) return "is not a directory";
    return {};
}

}  // namespace egdb
