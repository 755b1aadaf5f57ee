CoreBenchmark.main(arguments: CommandLine.arguments)
