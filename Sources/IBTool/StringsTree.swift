import StasisSystem
import InterfaceBuilder

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Strings export and import over a whole `.lproj` folder in one call, as localization tools
/// use them (Stasis's extension: Apple's ibtool takes one document per call):
///
/// - `ibtool --export-strings-file OUT.lproj Base.lproj`: each `NAME.xib` and `NAME.storyboard`
///   of `Base.lproj` has its strings written to `OUT.lproj/NAME.strings` (the folder is made if
///   missing), the same bytes as a call per document writes;
/// - `ibtool --import-strings-file fr.lproj --write OUT.lproj Base.lproj`: each document that has
///   a `fr.lproj/NAME.strings` is written localized to `OUT.lproj/NAME.xib` (or `.storyboard`); a
///   document without one is reported as a warning and not written.
enum StringsTree {
  static func isFolder(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
  }

  /// The Interface Builder documents of `folder`, by name, sorted.
  static func documents(in folder: String) throws(IBToolError) -> [String] {
    guard let names = AtomicFile.entryNames(inFolder: folder) else { throw IBToolError(path: folder, detail: "cannot list the folder") }
    let documents = names.filter { $0.hasSuffix(".xib") || $0.hasSuffix(".storyboard") }.sorted()
    guard !documents.isEmpty else { throw IBToolError(path: folder, detail: "no .xib or .storyboard in the folder") }
    return documents
  }

  static func makeFolder(_ path: String) throws(IBToolError) {
    guard mkdir(path, 0o755) == 0 || errno == EEXIST && isFolder(path) else {
      throw IBToolError(path: path, detail: "cannot create the folder: \(String(cString: strerror(errno)))")
    }
  }

  static func baseName(_ document: String) -> String {
    String(document.dropLast(document.hasSuffix(".xib") ? 4 : 11))
  }

  /// `--export-strings-file FOLDER` over the documents of `input`.
  static func export(_ input: String, to output: String) throws(IBToolError) {
    let documents = try documents(in: input)
    try makeFolder(output)
    for document in documents {
      do {
        try StringsExport(try InterfaceDocument(contentsOfFile: input + "/" + document)).write(toFile: output + "/" + baseName(document) + ".strings")
      } catch {
        throw IBToolError(path: nil, detail: error.description)
      }
    }
  }

  /// `--import-strings-file FOLDER --write FOLDER` over the documents of `input`; returns the
  /// warnings.
  static func importStrings(_ input: String, strings: String, writeTo output: String) throws(IBToolError) -> [String] {
    let documents = try documents(in: input)
    guard isFolder(strings) else { throw IBToolError(path: strings, detail: "with a folder of documents, --import-strings-file names a folder of .strings files") }
    try makeFolder(output)
    var warnings: [String] = []
    for document in documents {
      let table = strings + "/" + baseName(document) + ".strings"
      guard access(table, F_OK) == 0 else {
        warnings.append("\(input)/\(document): no \(table); not localized")
        continue
      }
      do {
        let found = try StringsImport.importStrings(fromFile: table, document: input + "/" + document, writeTo: output + "/" + document)
        warnings += found.map { "\(table): \($0)" }
      } catch {
        throw IBToolError(path: nil, detail: error.description)
      }
    }
    return warnings
  }
}

extension IBTool {
  /// Runs a strings export or import whose input is a folder (``StringsTree``); `nil` when the
  /// input is not a folder or no strings step was asked for.
  func runStringsTree(_ options: Options) -> Int32? {
    guard options.exportStringsFile != nil || options.importStringsFile != nil, StringsTree.isFolder(options.input) else { return nil }
    var report = Report(notices: startingNotices, documents: [options.input])
    var status: Int32 = 0
    do throws(IBToolError) {
      guard options.compile == nil, !options.printObjects, !options.printHierarchy, !options.printConnections, !options.printClasses, options.compare == nil
      else { throw IBToolError(path: options.input, detail: "a folder of documents takes only --export-strings-file or --import-strings-file with --write") }
      if let output = options.exportStringsFile { try StringsTree.export(options.input, to: output) }
      if let strings = options.importStringsFile {
        guard let output = options.write else { throw IBToolError(path: nil, detail: "--import-strings-file needs --write OUT.lproj") }
        report.warnings += try StringsTree.importStrings(options.input, strings: strings, writeTo: output)
      }
    } catch {
      report.errors.append("\(error)")
      status = 1
    }
    if options.errors || options.warnings || options.notices || !report.errors.isEmpty || !report.warnings.isEmpty {
      try? environment.standardStreams.writeOutput(report.renderedBytes(options: options))
    }
    return status
  }
}
