"""State-space search over region graphs: BFS, A*, IDA* (one process or many), greedy and beam."""
