import Foundation
import InterfaceRendering
import StasisSystem

/// `--render OUT.svg|OUT.png` (ours; Apple's ibtool has no such flag): every window, top-level
/// view and storyboard scene of the document drawn from its loaded views — one picture per scene
/// (`OUT-<scene>.svg`; `OUT` itself when there is one scene or `--scene` picks one), or with
/// `--contact-sheet` all of them on one picture with the storyboard's segues as arrows. `--scale`
/// sizes the picture, `--appearance light|dark` picks the colours. A PNG is the SVG rasterised
/// by librsvg's `rsvg-convert` (found on `PATH`).
struct RenderRequest: Equatable {
  var output: String
  var contactSheet = false
  var scene: String?
  var scale = 1.0
  var appearance = Appearance.light

  /// The request of `options`, its values checked.
  init(_ options: Options, output: String) throws(IBToolError) {
    self.output = output
    contactSheet = options.contactSheet
    scene = options.scene
    if let text = options.scale {
      guard let value = Double(text), value.isFinite, value > 0, value <= 16 else {
        throw IBToolError(path: nil, detail: "--scale \(text): a number above 0, at most 16")
      }
      scale = value
    }
    if let text = options.appearance {
      guard let value = Appearance(rawValue: text) else { throw IBToolError(path: nil, detail: "--appearance \(text): light or dark") }
      appearance = value
    }
    guard output.hasSuffix(".svg") || output.hasSuffix(".png") else {
      throw IBToolError(path: nil, detail: "--render \(output): the file must end in .svg or .png")
    }
  }

  var isPNG: Bool { output.hasSuffix(".png") }

  /// The file of the scene named `identifier` when there are several: `OUT-<identifier>.ext`,
  /// the identifier kept to letters, digits, `-`, `_` and `.`.
  func file(forScene identifier: String) -> String {
    let safe = String(identifier.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" })
    let dot = output.lastIndex(of: ".")!
    return String(output[..<dot]) + "-" + safe + String(output[dot...])
  }
}

extension IBTool {
  /// Renders `input` as `request` asks; answers the files written (none for a document without
  /// a window, top-level view or scene: a menu, custom objects).
  func render(_ input: String, request: RenderRequest) throws(IBToolError) -> [String] {
    let palette = Palette(appearance: request.appearance)
    let document = try RenderedDocument(path: input, layout: SceneLayout(palette: palette), fileSystem: environment.fileSystem)
    var scenes = document.scenes
    if let wanted = request.scene {
      scenes = scenes.filter { $0.identifier == wanted }
      guard !scenes.isEmpty else {
        throw IBToolError(path: input, detail: "--scene \(wanted): no such scene (the scenes: \(document.scenes.map(\.identifier).joined(separator: ", ")))")
      }
    }
    guard !scenes.isEmpty else { return [] }
    let renderer = SVGRenderer(scale: request.scale, palette: palette)
    var pictures: [(file: String, svg: String)] = []
    if request.contactSheet {
      let name = URL(fileURLWithPath: input).lastPathComponent
      let sheet = ContactSheet(scenes: scenes, links: document.links).scene(identifier: "sheet", caption: name, palette: palette)
      pictures = [(request.output, renderer.document(for: sheet))]
    } else if scenes.count == 1 {
      pictures = [(request.output, renderer.document(for: scenes[0]))]
    } else {
      pictures = scenes.map { (request.file(forScene: $0.identifier), renderer.document(for: $0)) }
    }
    let rasteriser = request.isPNG ? try Rasteriser(environment: environment) : nil
    for picture in pictures {
      if let rasteriser {
        try rasteriser.writePNG(svg: picture.svg, to: picture.file)
      } else {
        try writeFile(Data(picture.svg.utf8), to: picture.file)
      }
    }
    return pictures.map(\.file)
  }

  func writeFile(_ data: Data, to path: String) throws(IBToolError) {
    do {
      try environment.fileSystem.write(data, toFile: path)
    } catch {
      throw IBToolError(path: nil, detail: StoryboardFolder.fileSystemMessage(error))
    }
  }
}

/// librsvg's `rsvg-convert`, which turns the SVG into a PNG (no rasteriser of our own).
struct Rasteriser {
  let executable: String
  let environment: HostEnvironment

  /// Finds `rsvg-convert` on the environment's `PATH`.
  init(environment: HostEnvironment) throws(IBToolError) {
    self.environment = environment
    let path = environment.variables["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for folder in path.split(separator: ":") where !folder.isEmpty {
      let candidate = String(folder) + "/rsvg-convert"
      if let status = environment.fileSystem.status(of: candidate), status.kind == .file, status.permissions & 0o111 != 0 {
        executable = candidate
        return
      }
    }
    throw IBToolError(
      path: nil,
      detail: "--render to .png needs librsvg's rsvg-convert, which is not on PATH (Debian/Ubuntu: apt-get install librsvg2-bin; "
        + "Tools/install-test-prerequisites.sh installs it), or render to .svg")
  }

  /// Rasterises `svg` into the PNG file `path` (through a temporary SVG beside it).
  func writePNG(svg: String, to path: String) throws(IBToolError) {
    let temporary = path + ".\(environment.process.id).render.svg"
    defer { try? environment.fileSystem.removeItem(temporary) }
    do {
      try environment.fileSystem.write(Data(svg.utf8), toFile: temporary)
    } catch {
      throw IBToolError(path: nil, detail: "\(path): cannot write the SVG to rasterise beside it: \(error.detail)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["--format", "png", "--output", path, temporary]
    let errors = Pipe()
    process.standardError = errors
    do {
      try process.run()
    } catch {
      throw IBToolError(path: nil, detail: "\(executable) cannot be run: \(error.localizedDescription)")
    }
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw IBToolError(
        path: nil, detail: "\(executable) failed (status \(process.terminationStatus)) on \(path): \(String(decoding: message, as: UTF8.self))")
    }
  }
}
