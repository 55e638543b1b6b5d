# reorder/: row permutations (none yet; the reordered formats come later).
