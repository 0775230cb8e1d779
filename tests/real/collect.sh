#!/bin/sh
# tests/real/collect.sh GITDIR REPO NAME DIR [history]: copy every .ptx of the repository
# snapshot in GITDIR into DIR/NAME/, its path's slashes made '_', and print SOURCES.tsv's rows
# for them (file, repository REPO, path, commit). The copies stay on this machine.
# Without 'history' the files are HEAD's. With it, every .ptx path that any commit of the
# snapshot added or changed is taken at the newest such commit (files since moved or deleted
# too). Either way a file whose content equals one already under DIR is left out, so that a
# file moved or copied within a repository, or kept by two of them, counts once.
# Env: EXCLUDE, an extended regular expression: paths it matches are left out (fuzzer
# artefacts, files broken on purpose).
set -eu
git=${1:?usage: collect.sh GITDIR REPO NAME DIR [history]} repo=${2:?} name=${3:?} dir=${4:?}
mode=${5:-head}
EXCLUDE=${EXCLUDE:-'^$'}
mkdir -p "$dir/$name"
seen=$(mktemp) && trap 'rm -f "$seen"' EXIT
find "$dir" -type f -name '*.ptx' -exec git hash-object {} + > "$seen"
if [ "$mode" = history ]; then
	git -C "$git" log --all --format='C %H' --name-only --diff-filter=AM -- '*.ptx' |
		awk '/^C /{c=$2;next} NF && !seen[$0]++ {print c, $0}'
else
	head=$(git -C "$git" rev-parse HEAD)
	git -C "$git" ls-tree -r --name-only HEAD | grep '\.ptx$' | LC_ALL=C sort | sed "s|^|$head |"
fi | grep -Ev " ($EXCLUDE)" | while read -r commit p; do
	blob=$(git -C "$git" rev-parse "$commit:$p") || continue
	grep -qx "$blob" "$seen" && continue
	echo "$blob" >> "$seen"
	local_name=$name/$(printf '%s' "$p" | tr / _)
	[ -e "$dir/$local_name" ] && continue
	git -C "$git" cat-file blob "$blob" > "$dir/$local_name" || { rm -f "$dir/$local_name"; continue; }
	printf '%s\t%s\t%s\t%s\n' "$local_name" "$repo" "$p" "$commit"
done
