// Garbage to every entry point: each call either returns or throws a BancoException — never
// an InternalException (a Rust panic), never a crash of the JVM.
package org.banco.tests

import org.banco.*

val garbageStrings: List<String> = listOf(
    "", " ", "\u0000", "h2", "h2e2e2", "z9z9", "C2=", "C2=0", "C0=5", "C2=99", "+-=", "13=2",
    "炮", "炮二平", "炮十平五", "前前炮平五", "🐉🐉🐉🐉", "h2\u0301e2", "\uFEFFh2e2", "9/9/9",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
    "kkkkkkkkk/9/9/9/9/9/9/9/9/KKKKKKKKK w - - -1 0",
    "x".repeat(100_000), "/".repeat(1000), "1".repeat(500),
)

val garbageSquares: List<Square> = listOf(
    sq(0, 0), sq(8, 9), sq(9, 0), sq(0, 10), Square(255u, 255u), sq(4, 200),
)

fun garbageBytes(): List<ByteArray> {
    val good = Game(GameKind.XIANGQI).use { it.save() }
    val out = mutableListOf(
        ByteArray(0), ByteArray(3), "BNCO".toByteArray(), ByteArray(64) { -1 },
        byteArrayOf(66, 78, 67, 79, 1, 0, 0, 3, 120, 0, -1, -1),
    )
    for (i in good.indices) out += good.copyOf().also { it[i] = (it[i].toInt() xor 0x5a).toByte() }
    out += good.copyOf(good.size - 1)
    out += good + byteArrayOf(0)
    return out
}

/** Runs [block]; a BancoException is fine, anything else (a panic) fails the test. */
fun tolerate(what: String, block: () -> Unit) {
    try {
        block()
    } catch (e: BancoException) {
        check(!e.message.isNullOrEmpty()) { "$what: empty message" }
        check(e !is BancoException.Internal) { "$what: $e" }
    }
}

fun garbageTests(s: Suite) {
    s.test("garbage to every Game entry point") {
        Game(GameKind.XIANGQI).use { g ->
            for (k in GameKind.values()) {
                tolerate("new $k") { Game(k).close() }
                tolerate("startFen $k") { startFen(k) }
            }
            for (t in garbageStrings) {
                tolerate("fromFen") { Game.fromFen(t).close() }
                validateFen(t)
                tolerate("parseSquare") { parseSquare(t) }
                for (n in Notation.values()) {
                    throws<BancoException> { g.playText(t, n) }
                    throws<BancoException> { g.parseMove(t, n) }
                }
            }
            for (a in garbageSquares) {
                tolerate("squareName") { squareName(a) }
                tolerate("pieceAt") { g.pieceAt(a) }
                tolerate("legalMovesFrom") { g.legalMovesFrom(a) }
                for (b in garbageSquares) {
                    val m = Move(a, b)
                    tolerate("isLegal") { g.isLegal(m) }
                    throws<BancoException> { g.play(m) }
                    for (n in Notation.values()) throws<BancoException> { g.moveText(m, n) }
                }
            }
            // A flipped byte may still give a valid record (another no-capture limit): each
            // load must only end without a panic.
            for (b in garbageBytes()) {
                tolerate("load") { Game.load(b).close() }
            }
            for (b in garbageBytes().take(5)) {
                throws<BancoException.BadSave> { Game.load(b) }
                throws<BancoException.BadSave> { g.restore(b) }
            }
            for (r in listOf(0, 1, 10, 255)) {
                throws<BancoException.InvalidArgument> {
                    g.setRules(Rules(RepetitionRule.ASIAN, r.toUByte(), UShort.MAX_VALUE))
                }
            }
            repeat(3) {
                eq(null, g.undo())
                eq(null, g.redo())
            }
            eq(startFen(GameKind.XIANGQI), g.fen())
            eq(0u, g.status().ply)
        }
    }

    s.test("a throwing listener does not break the game") {
        Game(GameKind.XIANGQI).use { g ->
            g.setListener(object : GameListener {
                override fun onEvent(event: GameEvent): Unit = throw IllegalStateException("listener bug")
            })
            g.playText("h2e2", Notation.COORDINATE)
            g.undo()
            eq(0u, g.status().ply)
        }
    }
}
