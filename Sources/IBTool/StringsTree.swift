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
  /// The Interface Builder documents of `folder`, by name, sorted.
  static func documents(in folder: String, fileSystem: any FileSystem) throws(IBToolError) -> [String] {
    guard let names = try? fileSystem.entryNames(inFolder: folder) else { throw IBToolError(path: folder, detail: "cannot list the folder") }
    let documents = names.filter { $0.hasSuffix(".xib") || $0.hasSuffix(".storyboard") }.sorted()
    guard !documents.isEmpty else { throw IBToolError(path: folder, detail: "no .xib or .storyboard in the folder") }
    return documents
  }

  static func makeFolder(_ path: String, fileSystem: any FileSystem) throws(IBToolError) {
    do {
      try fileSystem.makeFolder(path, permissions: 0o755)
    } catch where error.code == .alreadyExists && fileSystem.isFolder(path) {
    } catch {
      let reason = error.systemError.map { String(cString: strerror($0)) } ?? error.detail
      throw IBToolError(path: path, detail: "cannot create the folder: \(reason)")
    }
  }

  static func baseName(_ document: String) -> String {
    String(document.dropLast(document.hasSuffix(".xib") ? 4 : 11))
  }

  /// `--export-strings-file FOLDER` over the documents of `input`.
  static func export(_ input: String, to output: String, environment: HostEnvironment) throws(IBToolError) {
    let documents = try documents(in: input, fileSystem: environment.fileSystem)
    try makeFolder(output, fileSystem: environment.fileSystem)
    for document in documents {
      do {
        try StringsExport(try InterfaceDocument(contentsOfFile: input + "/" + document, environment: environment))
          .write(toFile: output + "/" + baseName(document) + ".strings", environment: environment)
      } catch {
        throw IBToolError(path: nil, detail: error.description)
      }
    }
  }

  /// `--import-strings-file FOLDER --write FOLDER` over the documents of `input`; returns the
  /// warnings.
  static func importStrings(
    _ input: String, strings: String, writeTo output: String, environment: HostEnvironment
  ) throws(IBToolError) -> [String] {
    let fileSystem = environment.fileSystem
    let documents = try documents(in: input, fileSystem: fileSystem)
    guard fileSystem.isFolder(strings) else { throw IBToolError(path: strings, detail: "with a folder of documents, --import-strings-file names a folder of .strings files") }
    try makeFolder(output, fileSystem: fileSystem)
    var warnings: [String] = []
    for document in documents {
      let table = strings + "/" + baseName(document) + ".strings"
      guard fileSystem.exists(table) else {
        warnings.append("\(input)/\(document): no \(table); not localized")
        continue
      }
      do {
        let found = try StringsImport.importStrings(
          fromFile: table, document: input + "/" + document, writeTo: output + "/" + document, environment: environment)
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
    guard options.exportStringsFile != nil || options.importStringsFile != nil, environment.fileSystem.isFolder(options.input) else { return nil }
    var report = Report(notices: startingNotices, documents: [options.input])
    var status: Int32 = 0
    do throws(IBToolError) {
      guard options.compile == nil, !options.printObjects, !options.printHierarchy, !options.printConnections, !options.printClasses, options.compare == nil
      else { throw IBToolError(path: options.input, detail: "a folder of documents takes only --export-strings-file or --import-strings-file with --write") }
      if let output = options.exportStringsFile { try StringsTree.export(options.input, to: output, environment: environment) }
      if let strings = options.importStringsFile {
        guard let output = options.write else { throw IBToolError(path: nil, detail: "--import-strings-file needs --write OUT.lproj") }
        report.warnings += try StringsTree.importStrings(options.input, strings: strings, writeTo: output, environment: environment)
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
