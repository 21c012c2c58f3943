import QuoteBase

/// What `import FILE` reads, a chunk at a time: the file, or for "-" this run's standard input.
func inputChunks(of file: String, limit: Int) throws(FileError) -> FileReader.Chunks {
    if file == "-" { return FileReader.Chunks(standardInput: Run.current.context.input, limit: limit) }
    return try FileReader.Chunks(file, limit: limit)
}
