// Placeholder: the benchmark is written in Tools/bench (see Tools/bench/run).
print("NavlogBench")
