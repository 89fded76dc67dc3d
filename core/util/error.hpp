// The one error model of egdb. Every failure the library reports is an egdb::Error with a kind;
// the kinds, not the classes, decide what callers do: the CLI maps them to its exit codes
// (cli/main.cpp), the C ABI to its negative codes (capi/egdb_capi.cpp), each in one place.
//
// egdb::Error is a base mixed into the standard exception a failure has always been (FenError is
// still a std::invalid_argument, a missing file still a std::runtime_error), so code that catches
// the standard types keeps working while new code catches egdb::Error and switches on kind().
#pragma once

#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace egdb {

enum class ErrorKind : std::uint8_t {
    InvalidArgument,    // an argument out of range, an unknown option value, bad usage
    InvalidNotation,    // malformed FEN or PDN move text (the message names the token)
    NoDatabase,         // nothing usable at the path given: not a directory, no database files
    LookupNotPossible,  // the database cannot answer: too many pieces, a slice or kind it lacks
    CorruptData,        // a file contradicts its format: bad checksum, truncated, inconsistent index
    Io,                 // the file system failed: cannot open, read, write or map a file
    Unsupported,        // a capability this build lacks (the Kingsrow Tunstall tables)
    Cancelled,          // a progress callback asked to stop
    Internal,           // anything else (out of memory, a broken invariant)
};

std::string_view to_string(ErrorKind kind) noexcept;

class Error {
public:
    virtual ~Error() = default;
    virtual ErrorKind kind() const noexcept = 0;
    virtual const char* what() const noexcept = 0;

protected:
    Error() = default;
    Error(const Error&) = default;
    Error& operator=(const Error&) = default;
};

// A standard exception `Std` that is an egdb::Error of kind `K`.
template <class Std, ErrorKind K>
class ErrorOf : public Std, public Error {
public:
    explicit ErrorOf(const std::string& message) : Std(message) {}
    ErrorKind kind() const noexcept override { return K; }
    const char* what() const noexcept override { return Std::what(); }
};

// An error whose kind is known only where it is thrown.
class RuntimeError : public std::runtime_error, public Error {
public:
    RuntimeError(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
    ErrorKind kind() const noexcept override { return kind_; }
    const char* what() const noexcept override { return std::runtime_error::what(); }

private:
    ErrorKind kind_;
};

// The standard argument errors with their kind: every exception core throws is an egdb::Error.
using InvalidArgumentError = ErrorOf<std::invalid_argument, ErrorKind::InvalidArgument>;
using OutOfRangeError = ErrorOf<std::out_of_range, ErrorKind::InvalidArgument>;
// A broken invariant: a bug of egdb, never the caller's input.
using InternalError = ErrorOf<std::logic_error, ErrorKind::Internal>;
// A size or a distance beyond what this implementation holds (a block too large for 32-bit
// entries, a distance beyond the largest stored).
using LimitError = ErrorOf<std::length_error, ErrorKind::Unsupported>;
using DistanceOverflowError = ErrorOf<std::overflow_error, ErrorKind::Unsupported>;

// Memory that cannot be had (a mapping, a zstd context), with what it was for.
class OutOfMemoryError : public std::bad_alloc, public Error {
public:
    explicit OutOfMemoryError(std::string message) : message_(std::move(message)) {}
    ErrorKind kind() const noexcept override { return ErrorKind::Internal; }
    const char* what() const noexcept override { return message_.c_str(); }

private:
    std::string message_;
};

// A file contradicts its format (native pages, Kingsrow index, data and DTW files alike).
using CorruptDataError = ErrorOf<std::runtime_error, ErrorKind::CorruptData>;
// The file system failed on a file (the message names it).
using FileError = ErrorOf<std::runtime_error, ErrorKind::Io>;

// The kind of any exception: its own for an egdb::Error; InvalidArgument for the standard
// argument errors (std::invalid_argument, std::out_of_range, std::length_error); Internal for
// the rest (std::bad_alloc included).
ErrorKind kind_of(const std::exception& e) noexcept;

}  // namespace egdb
