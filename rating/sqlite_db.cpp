#include "rating/sqlite_db.hpp"

#include <cerrno>
#include <cstring>
#include <utility>

#include <sqlite3.h>

namespace arb::rating {
namespace {

// What the operating system said about a failed read or write. SQLite records it only for
// errors inside a statement (sqlite3_system_errno); one at COMMIT leaves it 0, and errno is then
// still the failed call's. errno is trusted only for what no routine probe sets (a missing
// journal gives ENOENT on every open).
int storage_errno(sqlite3* db, int saved_errno) {
    const int recorded = db ? sqlite3_system_errno(db) : 0;
    if (recorded) return recorded;
    switch (saved_errno) {
        case EIO: case ENOSPC: case EDQUOT: case EROFS: case ENXIO: case EFBIG: return saved_errno;
        default: return 0;
    }
}

[[noreturn]] void fail(sqlite3* db, int rc, std::string_view what) {
    const int saved_errno = errno;
    std::string message(what);
    message += ": ";
    message += db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    const char* file = db ? sqlite3_db_filename(db, "main") : nullptr;
    throw SqliteError(message, rc, file ? file : "", db ? sqlite3_extended_errcode(db) : rc,
                      storage_errno(db, saved_errno));
}

// A path as a SQLite URI path: the characters a URI gives a meaning to are escaped.
std::string uri_path(const std::string& path) {
    std::string out;
    for (unsigned char c : path) {
        if (c == '%' || c == '?' || c == '#' || c < 0x21 || c >= 0x7f) {
            static const char* hex = "0123456789ABCDEF";
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

}  // namespace

bool SqliteError::caused_by_machine() const {
    switch (code_ & 0xff) {
        case SQLITE_BUSY: case SQLITE_LOCKED: case SQLITE_READONLY: case SQLITE_FULL: case SQLITE_IOERR:
        case SQLITE_CANTOPEN: case SQLITE_PERM: case SQLITE_CORRUPT: case SQLITE_NOTADB: case SQLITE_NOLFS:
            return true;
        default: return false;
    }
}

std::string SqliteError::user_message() const {
    const std::string db = "database '" + (path_.empty() ? std::string("?") : path_) + "'";
    switch (code_ & 0xff) {
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
            return db + " is locked by another process and stayed locked (ARBITER_DB_WAIT_S, default 30 s) (" +
                   what() + ")";
        case SQLITE_READONLY:
        case SQLITE_PERM:
            return db + " cannot be written: the file or its folder is read-only (" + what() + ")";
        case SQLITE_FULL: return "cannot write " + db + ": " + std::strerror(ENOSPC);  // as the system words it
        case SQLITE_IOERR: {
            // What the storage said, as the system words it: "cannot write X: Input/output error".
            const int ext = extended_ ? extended_ : code_;
            const bool reading = ext == SQLITE_IOERR_READ || ext == SQLITE_IOERR_SHORT_READ;
            const std::string why = system_errno_ ? std::strerror(system_errno_) : std::string(what());
            return std::string(reading ? "cannot read " : "cannot write ") + db + ": " + why;
        }
        case SQLITE_CORRUPT:
        case SQLITE_NOTADB: return db + " is corrupt (" + what() + ")";
        default: return db + ": " + what();
    }
}

// ---------------------------------------------------------------------------------------------
// Statement

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
    const int rc = sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr);
    if (rc != SQLITE_OK) fail(db, rc, "cannot prepare '" + std::string(sql.substr(0, 80)) + "'");
}

Statement::Statement(Statement&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), stmt_(std::exchange(other.stmt_, nullptr)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
    if (this != &other) {
        if (stmt_) sqlite3_finalize(stmt_);
        db_ = std::exchange(other.db_, nullptr);
        stmt_ = std::exchange(other.stmt_, nullptr);
    }
    return *this;
}

Statement::~Statement() {
    if (stmt_) sqlite3_finalize(stmt_);
}

void Statement::check(int rc, const char* what) const {
    if (rc != SQLITE_OK) fail(db_, rc, what);
}

Statement& Statement::bind(int index, std::int64_t value) {
    check(sqlite3_bind_int64(stmt_, index, value), "bind");
    return *this;
}

Statement& Statement::bind(int index, double value) {
    check(sqlite3_bind_double(stmt_, index, value), "bind");
    return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
    check(sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT),
          "bind");
    return *this;
}

Statement& Statement::bind_null(int index) {
    check(sqlite3_bind_null(stmt_, index), "bind");
    return *this;
}

bool Statement::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail(db_, rc, "statement failed");
}

void Statement::run() {
    while (step()) {
    }
    reset();
}

void Statement::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

std::int64_t Statement::column_int64(int column) const { return sqlite3_column_int64(stmt_, column); }

double Statement::column_double(int column) const { return sqlite3_column_double(stmt_, column); }

std::string Statement::column_text(int column) const {
    const auto* text = sqlite3_column_text(stmt_, column);
    if (!text) return {};
    return std::string(reinterpret_cast<const char*>(text), static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
}

bool Statement::column_is_null(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

std::optional<std::string> Statement::column_optional_text(int column) const {
    if (column_is_null(column)) return std::nullopt;
    return column_text(column);
}

std::optional<std::int64_t> Statement::column_optional_int64(int column) const {
    if (column_is_null(column)) return std::nullopt;
    return column_int64(column);
}

// ---------------------------------------------------------------------------------------------
// Database

Database::Database(const std::string& path, Access access) : path_(path), access_(access) {
    int flags = SQLITE_OPEN_NOMUTEX;
    std::string name = path;
    switch (access) {
        case Access::read_only: flags |= SQLITE_OPEN_READONLY; break;
        case Access::read_only_immutable:
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
            name = "file:" + uri_path(path) + "?immutable=1";
            break;
        case Access::read_write: flags |= SQLITE_OPEN_READWRITE; break;
        case Access::read_write_create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE; break;
    }
    const int rc = sqlite3_open_v2(name.c_str(), &db_, flags, nullptr);
    if (rc != SQLITE_OK) {
        std::string message = "cannot open '" + path + "': " + (db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc));
        if (db_) sqlite3_close(db_);
        db_ = nullptr;
        throw SqliteError(message, rc, path);
    }
    sqlite3_extended_result_codes(db_, 0);
}

Database::Database(Database&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)),
      path_(std::move(other.path_)),
      query_only_(other.query_only_),
      access_(other.access_),
      transaction_depth_(other.transaction_depth_) {}

Database& Database::operator=(Database&& other) noexcept {
    if (this != &other) {
        if (db_) sqlite3_close_v2(db_);
        db_ = std::exchange(other.db_, nullptr);
        path_ = std::move(other.path_);
        query_only_ = other.query_only_;
        access_ = other.access_;
        transaction_depth_ = other.transaction_depth_;
    }
    return *this;
}

Database::~Database() {
    // close_v2 defers the close until every statement is finalized, so order does not matter.
    if (db_) sqlite3_close_v2(db_);
}

void Database::exec(std::string_view sql) {
    std::string text(sql);
    char* error = nullptr;
    const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error);
    if (rc != SQLITE_OK) {
        const int saved_errno = errno;
        std::string message = error ? error : sqlite3_errstr(rc);
        sqlite3_free(error);
        throw SqliteError("'" + text.substr(0, 80) + "' failed: " + message, rc, path_, sqlite3_extended_errcode(db_),
                          storage_errno(db_, saved_errno));
    }
}

Statement Database::prepare(std::string_view sql) { return Statement(db_, sql); }

std::int64_t Database::last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }

int Database::changes() const { return sqlite3_changes(db_); }

void Database::transaction(const std::function<void()>& fn) {
    if (transaction_depth_ > 0) {
        ++transaction_depth_;
        try {
            fn();
        } catch (...) {
            --transaction_depth_;
            throw;
        }
        --transaction_depth_;
        return;
    }
    exec("BEGIN IMMEDIATE");
    transaction_depth_ = 1;
    try {
        fn();
        exec("COMMIT");
        transaction_depth_ = 0;
    } catch (...) {
        transaction_depth_ = 0;
        // A failed COMMIT may already have rolled back; ignore the second error.
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

void Database::read_snapshot(const std::function<void()>& fn) {
    if (transaction_depth_ > 0 || !sqlite3_get_autocommit(db_)) {
        fn();
        return;
    }
    exec("BEGIN");
    transaction_depth_ = 1;
    try {
        fn();
        transaction_depth_ = 0;
        exec("COMMIT");
    } catch (...) {
        transaction_depth_ = 0;
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

}  // namespace arb::rating
