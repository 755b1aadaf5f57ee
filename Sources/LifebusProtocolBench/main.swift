try ProtocolBenchmark.main(arguments: CommandLine.arguments)
