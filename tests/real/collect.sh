#!/bin/sh
# tests/real/collect.sh GITDIR REPO NAME DIR: copy every .ptx of the repository snapshot in
# GITDIR (its HEAD) into DIR/NAME/, its path's slashes made '_', and print SOURCES.tsv's rows
# for them (file, repository REPO, path, commit). The copies stay on this machine.
set -eu
git=${1:?usage: collect.sh GITDIR REPO NAME DIR} repo=${2:?} name=${3:?} dir=${4:?}
commit=$(git -C "$git" rev-parse HEAD)
mkdir -p "$dir/$name"
git -C "$git" ls-tree -r --name-only HEAD | grep '\.ptx$' | LC_ALL=C sort | while read -r p; do
	local_name=$name/$(printf '%s' "$p" | tr / _)
	git -C "$git" show "HEAD:$p" > "$dir/$local_name" || { rm -f "$dir/$local_name"; continue; }
	printf '%s\t%s\t%s\t%s\n' "$local_name" "$repo" "$p" "$commit"
done
