// swift-tools-version:5.9
// Banco for iOS: BancoKit (the generated Swift bindings + models, no UIKit/SwiftUI) and
// BancoApp (SwiftUI views). Before opening in Xcode, build the xcframework and copy the
// generated Swift into BancoKit (ios-shell/scripts/build-xcframework.sh, see README.md).
// On Linux, ios-shell/scripts/test.sh builds BancoKit and runs Tests/BancoKitTests with swiftc.
import PackageDescription

let package = Package(
    name: "BancoShell",
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [
        .library(name: "BancoKit", targets: ["BancoKit"]),
        .library(name: "BancoApp", targets: ["BancoApp"]),
    ],
    targets: [
        // The Rust library for device and simulator, with the C header and module map
        // (module banco_ffiFFI) that the generated Banco.swift imports.
        .binaryTarget(name: "banco_ffiFFI", path: "BancoFFI.xcframework"),
        // Sources/BancoKit/Generated/Banco.swift is copied from target/bindings/swift by the
        // build script (generated code is never committed).
        .target(name: "BancoKit", dependencies: ["banco_ffiFFI"], path: "Sources/BancoKit"),
        .target(name: "BancoApp", dependencies: ["BancoKit"], path: "Sources/BancoApp"),
        .executableTarget(name: "BancoKitTests", dependencies: ["BancoKit"], path: "Tests/BancoKitTests"),
    ],
    swiftLanguageVersions: [.v5]
)
