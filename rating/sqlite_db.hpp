#pragma once
// A thin RAII layer over the SQLite C API: one connection, prepared statements, transactions.
// The store is built on it, and other components (tournament schedules, ladders) use it through
// Store::db() to keep their own tables in the same file.
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace arb::rating {

// A SQLite failure. Corrupt and foreign files are reported by Store::open as UserError; a
// failure the machine causes (locked, read-only, full, I/O) is told apart by caused_by_machine()
// and reported in one line naming the database; anything else is a bug.
class SqliteError : public std::runtime_error {
public:
    SqliteError(const std::string& what, int code, std::string path = {}, int extended_code = 0, int system_errno = 0)
        : std::runtime_error(what), code_(code), path_(std::move(path)), extended_(extended_code),
          system_errno_(system_errno) {}
    int code() const { return code_; }
    const std::string& path() const { return path_; }  // the database file, when known
    bool caused_by_machine() const;
    // "database 'x' is locked by another process (...)" and the like.
    std::string user_message() const;

private:
    int code_;
    std::string path_;
    int extended_;      // SQLITE_IOERR_WRITE and the like, 0 when unknown
    int system_errno_;  // what the operating system said (EIO, ENOSPC), 0 when unknown
};

class Statement {
public:
    Statement() = default;
    Statement(sqlite3* db, std::string_view sql);
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&& other) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    ~Statement();

    // Parameters are 1-based, as in SQLite. Each returns *this so binds can be chained.
    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view value);
    Statement& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
    Statement& bind(int index, const std::string& value) { return bind(index, std::string_view(value)); }
    Statement& bind_null(int index);
    template <class T>
    Statement& bind(int index, const std::optional<T>& value) {
        return value ? bind(index, *value) : bind_null(index);
    }

    // Runs one step: true while a row is available, false when done.
    bool step();
    // Steps to completion (for statements that return no rows).
    void run();
    // Makes the statement reusable with new bindings.
    void reset();

    // Columns are 0-based, as in SQLite.
    std::int64_t column_int64(int column) const;
    int column_int(int column) const { return static_cast<int>(column_int64(column)); }
    double column_double(int column) const;
    std::string column_text(int column) const;
    bool column_is_null(int column) const;
    std::optional<std::string> column_optional_text(int column) const;
    std::optional<std::int64_t> column_optional_int64(int column) const;

    sqlite3_stmt* handle() const { return stmt_; }

private:
    void check(int rc, const char* what) const;

    sqlite3* db_ = nullptr;
    sqlite3_stmt* stmt_ = nullptr;
};

class Database {
public:
    // read_only_immutable: nobody writes the file while it is open (SQLite neither locks nor
    // creates -wal/-shm files beside it).
    enum class Access { read_only, read_only_immutable, read_write, read_write_create };

    // Opens (or creates) a file. No pragma is run here, so opening never writes to the file.
    Database(const std::string& path, Access access);
    Database(Database&& other) noexcept;
    Database& operator=(Database&& other) noexcept;
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;
    ~Database();

    void exec(std::string_view sql);  // one or more statements, no results
    Statement prepare(std::string_view sql);
    std::int64_t last_insert_rowid() const;
    int changes() const;

    // Runs fn inside BEGIN IMMEDIATE ... COMMIT; rolls back and rethrows if fn throws.
    // Immediate so that two arbiters writing one file queue on the busy timeout instead of
    // failing with SQLITE_BUSY on lock upgrade. Nested calls join the outer transaction.
    void transaction(const std::function<void()>& fn);
    // Runs fn inside a read transaction (BEGIN ... COMMIT, deferred): every statement fn runs
    // sees the same state of the file, never a match another process commits meanwhile. Inside
    // a transaction, fn simply joins it.
    void read_snapshot(const std::function<void()>& fn);

    bool read_only() const { return access_ == Access::read_only || access_ == Access::read_only_immutable || query_only_; }
    // The connection may read only (PRAGMA query_only), though opened for writing.
    void set_query_only() {
        exec("PRAGMA query_only=ON");
        query_only_ = true;
    }
    const std::string& path() const { return path_; }
    sqlite3* handle() const { return db_; }

private:
    sqlite3* db_ = nullptr;
    std::string path_;
    bool query_only_ = false;
    Access access_ = Access::read_only;
    int transaction_depth_ = 0;
};

}  // namespace arb::rating
