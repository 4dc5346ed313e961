# Sourced by the storage tests. only_whole_matches DB: every stored match has all four seats
# (participants); fails naming the first that does not.
only_whole_matches() {
  local bad
  bad=$(sqlite3 "$1" "SELECT m.id FROM matches m LEFT JOIN participants p ON p.match_id = m.id
                      GROUP BY m.id HAVING COUNT(p.match_id) != 4 LIMIT 1")
  [ -z "$bad" ] || fail "match $bad is stored without its four seats"
}
