#!/usr/bin/env bash
# git-history.sh REPOSITORY [MAX_COMMITS]: prints a real history as snapshot lines for
# `replay import`: one line per commit on the first-parent chain, oldest first, with the
# repository's file tree at that commit. Directories are sections (in the order `git ls-tree`
# first names them), files are items (their paths), blob ids are the items' summaries, and
# each line's meta holds the commit id and its author time.
#
#   scripts/git-history.sh ~/src/swift-nio 3000 > nio.jsonl
#   replay import nio.jsonl --log /tmp/nio-log
set -euo pipefail
repository=${1:?usage: git-history.sh REPOSITORY [MAX_COMMITS]}
limit=${2:-0}
commits=$(git -C "$repository" rev-list --first-parent --reverse HEAD)
if [[ $limit -gt 0 ]]; then commits=$(head -n "$limit" <<<"$commits"); fi
for commit in $commits; do
    time=$(git -C "$repository" show -s --format=%aI "$commit")
    git -C "$repository" ls-tree -r --full-tree "$commit" |
        awk -v commit="$commit" -v time="$time" -F '\t' '
        function quoted(text) {
            gsub(/\\/, "\\\\", text); gsub(/"/, "\\\"", text); gsub(/\t/, "\\t", text)
            return "\"" text "\""
        }
        {
            split($1, fields, " ")
            path = $2
            directory = path; sub(/\/[^\/]*$/, "", directory)
            if (directory == path) directory = "."
            if (!(directory in items)) { order[++count] = directory; items[directory] = "" }
            item = "{\"id\":" quoted(path) ",\"summary\":" quoted(fields[3]) "}"
            items[directory] = items[directory] (items[directory] == "" ? "" : ",") item
        }
        END {
            line = "{\"meta\":{\"commit\":" quoted(commit) ",\"time\":" quoted(time) "},\"sections\":["
            for (i = 1; i <= count; i++) {
                line = line (i > 1 ? "," : "") "{\"title\":" quoted(order[i]) ",\"items\":[" items[order[i]] "]}"
            }
            print line "]}"
        }'
done
