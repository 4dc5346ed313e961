#!/bin/sh
# A tic-tac-toe bot for the toy game's test: answers each "turn BOARD" with the first free cell.
while read -r word board; do
  [ "$word" = "turn" ] || continue
  i=0
  rest=$board
  while [ -n "$rest" ]; do
    case $rest in .*) echo "$i"; break ;; esac
    rest=${rest#?}
    i=$((i + 1))
  done
done
