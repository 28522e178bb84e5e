/// What an iOS document says about how it is compiled when the build does not say it: the Xcode
/// that saved it (its `toolsVersion`) and its own deployment target (`<deployment version=…>`).
extension UIKitNibCompiler {
  /// The Xcode releases (as `DTXcode` numbers them) by the first Interface Builder build
  /// (`toolsVersion`) they saved with. Interface Builder's build rises with each release; the
  /// bounds come from the corpus's Apple-compiled pairs (a document of a build is compiled by
  /// no older Xcode than the one listed: 10117 by 7.3.1, 11198.2 by 8.0, 11762 by 8.2.1, 12121
  /// and 13196 by 9.0, 13770 by 9.2, 14109 by 9.3, 14490.70 by 10.2, 15505 by 11.2) and from the
  /// macOS build each saved document records in `systemVersion` (14D/14E: 10.10.3–4, Xcode 6.3–6.4;
  /// 15A–15B: 10.11.0–1, Xcode 7.0–7.1; 15F–15G: 10.11.5–6, Xcode 7.3; 16A–16D: 10.12.0–3,
  /// Xcode 8.0–8.2; 16F–16G: 10.12.5–6, Xcode 8.3). Builds before 9000 (Xcode 6 and older)
  /// count as Xcode 7.0, the oldest encoding this compiler writes. 17000 and later (the corpus has
  /// none) count as 12.0, the newest.
  static let xcodeByToolsVersion: [(toolsVersion: Double, xcode: Int)] = [
    (0, 700), (9500, 720), (10000, 730), (11000, 800), (11500, 810), (11700, 820), (12000, 830),
    (13000, 900), (13700, 920), (14000, 930), (14400, 1000), (14450, 1020), (15000, 1100), (17000, 1200),
  ]

  /// The Xcode release (`DTXcode`: 1200 = 12.0) that saved a document, read from the root's
  /// `toolsVersion` (the Interface Builder build; `xcodeByToolsVersion`); the newest Xcode
  /// (12.0) for a document without a readable `toolsVersion`.
  public static func savingXcode(of document: InterfaceDocument) -> Int {
    guard let build = Double(document.toolsVersion) else { return 1200 }
    return xcodeByToolsVersion.last { build >= $0.toolsVersion }?.xcode ?? 700
  }

  /// The document's own deployment target, major and minor: `<deployment identifier="iOS"
  /// version="2304"/>` under `<dependencies>` holds it as 0xMMmp (2304 = 0x0900 = iOS 9.0,
  /// 2320 = 0x0910 = 9.1). `nil` when the document builds for the project's target
  /// (`<deployment identifier="iOS"/>` without a version) or names none.
  public static func documentDeploymentTarget(of document: InterfaceDocument) -> (major: Int, minor: Int)? {
    guard let deployment = document.root.child("dependencies")?.children("deployment").first(where: { $0["version"] != nil }),
      let version = Int(deployment["version"] ?? ""), version > 0
    else { return nil }
    return (version >> 8, (version >> 4) & 0xF)
  }

  /// The last release of each Xcode major version (`DTXcode`), the encoding of that major's newest
  /// point release; 12 as the newest this compiler knows.
  static let lastRelease = [7: 731, 8: 833, 9: 941, 10: 1030, 11: 1170, 12: 1200]

  /// The Xcode whose encoding a document is compiled in when `--xcode-version` is not given: the
  /// last release of the major version that saved it (a document saved by Xcode 9.1 is built by
  /// Xcode 9.4.1, as a team keeps its Xcode's point releases current). Measured on the corpus this
  /// matches one more source than the saving release itself and far more than the newest Xcode.
  public static func defaultXcode(for document: InterfaceDocument) -> Int {
    let saving = savingXcode(of: document)
    return lastRelease[saving / 100] ?? saving
  }

  /// The deployment target a document is compiled for when `--minimum-deployment-target` is not
  /// given: its own (``documentDeploymentTarget(of:)``), else the oldest iOS the Xcode `xcode`
  /// builds for (iOS 8.0 through Xcode 11 — Xcode 7 builds for older ones still, which the rules
  /// here treat as 8.0 — and 9.0 from Xcode 12), and never before the oldest iOS the document's
  /// features build for: a document using safe-area layout guides (`useSafeAreas="YES"`) cannot
  /// be built for a target before iOS 9.0 (Interface Builder's error "Safe Area Layout Guide
  /// before iOS 9.0"), so its project's target is 9.0 or later.
  public static func defaultDeploymentTarget(for document: InterfaceDocument, xcode: Int) -> (major: Int, minor: Int) {
    let target = documentDeploymentTarget(of: document) ?? (xcode >= 1200 ? (9, 0) : (8, 0))
    guard document.root["useSafeAreas"] == "YES", target.major < 9 else { return target }
    return (9, 0)
  }
}

/// Universal documents built for both devices (`--target-device iphone --target-device ipad`).
extension UIKitNibCompiler {
  /// The device suffixes (`iphone`, `ipad`) of the nibs a document compiles to when built for
  /// both devices, or `[]` for one nib for every device. Apple's ibtool through Xcode 8 compiles
  /// a universal document (`targetRuntime="iOS.CocoaTouch"`, no `~iphone`/`~ipad` in its file
  /// name) that uses trait collections and whose top-level view is sized for a simulated screen
  /// (not freeform) into `X~iphone.nib` and `X~ipad.nib`: the calabash pairs, Xcode 7.0 to 8.3.2,
  /// whose universal builds give both and whose iPhone builds one `X.nib`. Freeform documents
  /// (SwiftMessages', built by Xcode 8.0 to 8.3 for both devices) stay one nib, and no pair of
  /// Xcode 9 or later is split (YPImagePicker's simulated-screen documents, Xcode 9 to 12).
  public static func deviceSuffixes(for document: InterfaceDocument, devices: [String], xcode: Int, fileName: String) -> [String] {
    guard devices.contains("iphone"), devices.contains("ipad"), xcode < 900, document.platform == .iOS, document.kind == .xib,
      document.targetRuntime == "iOS.CocoaTouch", document.root.flag("useTraitCollections"),
      !fileName.contains("~iphone"), !fileName.contains("~ipad")
    else { return [] }
    let sized = document.objects.contains { element in
      element.name != "placeholder" && isView(element)
        && !element.children.contains { $0.name == "freeformSimulatedSizeMetrics" && $0["key"] == "simulatedDestinationMetrics" }
    }
    return sized ? ["iphone", "ipad"] : []
  }
}
