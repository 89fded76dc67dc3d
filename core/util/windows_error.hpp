// Words for a Windows error code (GetLastError()), for the messages of FileError. Included only
// by the *_windows.cpp implementations.
#pragma once

#include <string>
#include <system_error>

namespace egdb {

inline std::string windows_error_text(unsigned long code) {
    // The system's text (FormatMessage) ends in ".\r\n", which would break our one-line messages.
    std::string text = std::system_category().message(static_cast<int>(code));
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ' || text.back() == '.')) {
        text.pop_back();
    }
    return text;
}

}  // namespace egdb
