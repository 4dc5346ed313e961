#pragma once
// Writing a file whole: to a temporary file beside it, then renamed over it, so that a run killed
// meanwhile (or a reader looking meanwhile) finds the old file or the new one, never half of one.
#include <filesystem>
#include <string_view>

namespace arb {

// `unsynced`: not forced to the disk first, for a file that need not outlive the machine's crash
// (fsync costs milliseconds).
enum class Durability { synced, unsynced };

// UserError "cannot write PATH: reason" when it cannot.
void write_file_atomically(const std::filesystem::path& path, std::string_view text,
                           Durability durability = Durability::synced);

}  // namespace arb
