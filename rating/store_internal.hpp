#pragma once
// Internal to the results repository's files and their tests (not for other layers): the
// connection behind a Store, the schema migrations and the bit-pattern conversion of unsigned
// 64-bit values, which SQLite stores as signed integers.
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "rating/sqlite_db.hpp"
#include "rating/store.hpp"

namespace arb::rating::store_internal {

// The statements of the repository's own files, and of tests that forge a file's state.
struct StoreAccess {
    static Statement prepare(const Store& store, const std::string& sql) { return store.prepare(sql); }
    static Database& db(Store& store) { return store.db_; }
};

// Whether the file holds this table: a component's tables exist only once it has written.
inline bool has_table(const Store& store, const char* name) {
    Statement st = StoreAccess::prepare(store, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1");
    st.bind(1, name);
    return st.step();
}

inline std::int64_t to_sql(std::uint64_t v) { return std::bit_cast<std::int64_t>(v); }
inline std::uint64_t from_sql(std::int64_t v) { return std::bit_cast<std::uint64_t>(v); }

// store_schema.cpp
// migrations[k] takes the store schema from version k to k+1 (k = 0: a new, empty file).
const std::vector<std::string>& store_migrations();
// Runs migrations[from], migrations[from + 1], ... in order (the caller holds the transaction).
void run_migrations(Database& db, const std::vector<std::string>& migrations, int from);

}  // namespace arb::rating::store_internal
