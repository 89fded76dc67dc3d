Attribute VB_Name = "EgdbApi"
' egdb.bas - Excel/Office VBA declarations of the egdb C interface (capi/egdb.h).
'
' Import this module (File > Import File...) and put egdb.dll where Office finds it: the folder
' of the workbook is not searched, so use the full path in Lib "..." or call ChDir/ChDrive to the
' DLL's folder first, or copy it beside EXCEL.EXE or into a folder on the PATH. 64-bit Office
' needs the 64-bit egdb.dll, 32-bit Office the 32-bit one (both export the same undecorated names;
' the 32-bit DLL uses __stdcall, as every DLL that VBA calls must).
' Paths (database folders, log files) are read as UTF-8 (capi/egdb.h), while VBA passes a String
' in the ANSI code page: the two agree on ASCII, so give these functions ASCII paths.
'
' Every function of the Kingsrow DLL (egdb_intl64.dll / egdb_intl32.dll) is declared here with the
' same name and arguments, so macros written for it work after changing the Lib name; egdb's own
' additions (probes, best moves, principal variation, batch lookups, stats, verify, build) follow.
'
' 64-bit Office: a bitboard is a LongLong and the Board type is the C struct EgdbPosition.
' 32-bit Office has no LongLong. There a Board holds each bitboard as two Longs, low 32 bits
' first (the same 24 bytes in the same order, since x86 is little-endian), and the 64-bit
' integers of the interface (slice sizes and indexes) are passed as Currency: VBA stores a
' Currency as a 64-bit integer scaled by 10000, so the helpers below convert with * 10000 and
' / 10000 (exact up to 922,337,203,685,477, far above any slice size). The helper functions
' work on both, so code that uses only them and the Board type compiles on either Office.
Option Explicit

' Side to move.
Public Const EGDB_BLACK As Long = 0
Public Const EGDB_WHITE As Long = 1

' Values of egdb_lookup and the search functions (for the side to move).
Public Const EGDB_SUBDB_UNAVAILABLE As Long = -2
Public Const EGDB_NOT_IN_CACHE As Long = -1
Public Const EGDB_UNKNOWN As Long = 0
Public Const EGDB_WIN As Long = 1
Public Const EGDB_LOSS As Long = 2
Public Const EGDB_DRAW As Long = 3
Public Const EGDB_DRAW_OR_LOSS As Long = 4
Public Const EGDB_WIN_OR_DRAW As Long = 5

' MTC databases.
Public Const EGDB_MTC_LESS_THAN_THRESHOLD As Long = 1
Public Const EGDB_MTC_THRESHOLD As Long = 10

' Errors (negative return values).
Public Const EGDB_DRIVER_TABLE_FULL As Long = -100
Public Const EGDB_FOPEN_FAIL As Long = -101
Public Const EGDB_OPEN_FAIL As Long = -102
Public Const EGDB_IDENTIFY_FAIL As Long = -103
Public Const EGDB_BAD_HANDLE As Long = -104
Public Const EGDB_NULL_INTERNAL_HANDLE As Long = -105
Public Const EGDB_FEN_ERROR As Long = -106
Public Const EGDB_NOT_WLD_TYPE As Long = -107
Public Const EGDB_NOT_DISTANCE_TYPE As Long = -108
Public Const EGDB_LOOKUP_NOT_POSSIBLE As Long = -109
Public Const EGDB_NULL_ARGUMENT As Long = -110
Public Const EGDB_BAD_ARGUMENT As Long = -111
Public Const EGDB_BUFFER_TOO_SMALL As Long = -112
Public Const EGDB_INTERNAL_ERROR As Long = -113
Public Const EGDB_CANCELLED As Long = -114

' Database types (egdb_identify, egdb_type).
Public Const EGDB_WLD_RUNLEN As Long = 0
Public Const EGDB_MTC_RUNLEN As Long = 1
Public Const EGDB_WLD_HUFFMAN As Long = 2
Public Const EGDB_WLD_TUN_V1 As Long = 3
Public Const EGDB_WLD_TUN_V2 As Long = 4
Public Const EGDB_DTW As Long = 5
Public Const EGDB_NATIVE As Long = 100

' Buffer sizes: a move list is an array of EGDB_MAXMOVES Boards, a FEN buffer EGDB_MAXFENLEN
' bytes, egdb_lookup_distance's moves EGDB_MAXMOVES * EGDB_MAXMOVELEN bytes.
Public Const EGDB_MAXMOVELEN As Long = 20
Public Const EGDB_MAXMOVES As Long = 128
Public Const EGDB_MAXFENLEN As Long = 180
Public Const EGDB_MAX_HANDLES As Long = 64

'' Hub position strings (side to move + 50 squares + NUL) and the notations of egdb_move_text.
Public Const EGDB_HUBLEN As Long = 52
Public Const EGDB_NOTATION_PDN As Long = 0
Public Const EGDB_NOTATION_HUB As Long = 1

' egdb_best_moves kinds.
Public Const EGDB_KIND_DTW As Long = 0
Public Const EGDB_KIND_MTC As Long = 1

' Size of the byte buffers the helpers pass for move strings (move_string writes at most 128).
Private Const MOVE_BUFFER As Long = 128

#If Win64 Then

' A position: the C struct EgdbPosition (black pieces, white pieces, kings).
Public Type Board
    black As LongLong
    white As LongLong
    king As LongLong
End Type

' egdb_probe's result: values for the side to move, distances in plies (-1: draw or unknown).
Public Type EgdbProbe
    wld As Long
    dtw As Long
    mtc As Long
    best(0 To 127) As Byte
End Type

' One entry of egdb_best_moves.
Public Type EgdbMoveDistance
    move(0 To 127) As Byte
    distance As Long
    wld As Long
    after As Board
End Type

Public Type EgdbStats
    lookups As LongLong
    cache_hits As LongLong
    cache_misses As LongLong
    cache_bytes As LongLong
    files As LongLong
End Type

' --- the Kingsrow DLL functions ---
Public Declare PtrSafe Function egdb_open Lib "egdb" (ByVal options As String, ByVal cache_mb As Long, ByVal directory As String, ByVal logfile As String) As Long
Public Declare PtrSafe Function egdb_close Lib "egdb" (ByVal handle As Long) As Long
Public Declare PtrSafe Function egdb_identify Lib "egdb" (ByVal directory As String, ByRef egdb_type As Long, ByRef max_pieces As Long) As Long
Public Declare PtrSafe Function egdb_lookup Lib "egdb" (ByVal handle As Long, ByRef pos As Board, ByVal color As Long, ByVal cl As Long) As Long
Public Declare PtrSafe Function egdb_lookup_fen Lib "egdb" (ByVal handle As Long, ByVal fen As String, ByVal cl As Long) As Long
Public Declare PtrSafe Function egdb_lookup_with_search Lib "egdb" (ByVal handle As Long, ByRef pos As Board, ByVal color As Long) As Long
Public Declare PtrSafe Function egdb_lookup_fen_with_search Lib "egdb" (ByVal handle As Long, ByVal fen As String) As Long
' distances: element 0 of a Long array of EGDB_MAXMOVES; moves: element 0 of a Byte array of
' EGDB_MAXMOVES * EGDB_MAXMOVELEN (move i starts at byte i * EGDB_MAXMOVELEN).
Public Declare PtrSafe Function egdb_lookup_distance Lib "egdb" (ByVal handle_wld As Long, ByVal handle_dist As Long, ByVal fen As String, ByRef distances As Long, ByRef moves As Byte) As Long
' movelist: element 0 of a Board array of at least EGDB_MAXMOVES.
Public Declare PtrSafe Function get_movelist Lib "egdb" (ByRef pos As Board, ByVal color As Long, ByRef movelist As Board) As Long
Public Declare PtrSafe Function is_capture Lib "egdb" (ByRef pos As Board, ByVal color As Long) As Boolean
Public Declare PtrSafe Function getdatabasesize_slice Lib "egdb" (ByVal nbm As Long, ByVal nbk As Long, ByVal nwm As Long, ByVal nwk As Long) As LongLong
Public Declare PtrSafe Sub indextoposition Lib "egdb" (ByVal index As LongLong, ByRef pos As Board, ByVal nbm As Long, ByVal nbk As Long, ByVal nwm As Long, ByVal nwk As Long)
Public Declare PtrSafe Function positiontoindex Lib "egdb" (ByRef pos As Board, ByVal nbm As Long, ByVal nbk As Long, ByVal nwm As Long, ByVal nwk As Long) As LongLong
' -1 (True) with the position after the only winning move in sharp, 0 otherwise, or an error code.
Public Declare PtrSafe Function is_sharp_win Lib "egdb" (ByVal handle As Long, ByRef pos As Board, ByVal color As Long, ByRef sharp As Board) As Integer
' out: element 0 of a Byte array of at least 128.
Public Declare PtrSafe Function move_string Lib "egdb" (ByRef from_pos As Board, ByRef to_pos As Board, ByVal color As Long, ByRef out As Byte) As Long
' fen: element 0 of a Byte array of at least EGDB_MAXFENLEN.
Public Declare PtrSafe Function positiontofen Lib "egdb" (ByRef pos As Board, ByVal color As Long, ByRef fen As Byte) As Long
Public Declare PtrSafe Function fentoposition Lib "egdb" (ByVal fen As String, ByRef pos As Board, ByRef color As Long) As Long

' --- egdb additions ---
' These two return a pointer to a C string: use egdb_version_text and egdb_error_text.
Public Declare PtrSafe Function egdb_version Lib "egdb" () As LongPtr
Public Declare PtrSafe Function egdb_last_error Lib "egdb" (ByVal handle As Long) As LongPtr
Public Declare PtrSafe Function egdb_type Lib "egdb" (ByVal handle As Long) As Long
Public Declare PtrSafe Function egdb_max_pieces Lib "egdb" (ByVal handle As Long) As Long
Public Declare PtrSafe Function egdb_probe Lib "egdb" (ByVal handle As Long, ByRef pos As Board, ByVal color As Long, ByRef out As EgdbProbe) As Long
Public Declare PtrSafe Function egdb_probe_fen Lib "egdb" (ByVal handle As Long, ByVal fen As String, ByRef out As EgdbProbe) As Long
' out: element 0 of an EgdbMoveDistance array of `capacity` entries.
Public Declare PtrSafe Function egdb_best_moves Lib "egdb" (ByVal handle As Long, ByVal fen As String, ByVal kind As Long, ByRef out As EgdbMoveDistance, ByVal capacity As Long) As Long
Public Declare PtrSafe Function egdb_pv Lib "egdb" (ByVal handle As Long, ByVal fen As String, ByRef out As Byte, ByVal size As Long) As Long
' positions, colors, results: element 0 of arrays of `count` entries.
Public Declare PtrSafe Function egdb_lookup_batch Lib "egdb" (ByVal handle As Long, ByRef positions As Board, ByRef colors As Long, ByVal count As Long, ByRef results As Long) As Long
Public Declare PtrSafe Function egdb_stats Lib "egdb" (ByVal handle As Long, ByRef out As EgdbStats) As Long
' progress: 0, or AddressOf a Function (ByVal user As LongPtr, ByVal what As LongPtr,
' ByVal done As LongLong, ByVal total As LongLong) As Long in a standard module; user: any value.
Public Declare PtrSafe Function egdb_verify Lib "egdb" (ByVal handle As Long, ByVal progress As LongPtr, ByVal user As LongPtr) As Long
Public Declare PtrSafe Function egdb_build Lib "egdb" (ByVal directory As String, ByVal pieces As Long, ByVal threads As Long, ByVal kinds As String, ByVal verify As Long, ByVal progress As LongPtr, ByVal user As LongPtr) As Long

' Hub protocol notation (Scan's protocol.txt). hub: element 0 of a Byte array of at least
' EGDB_HUBLEN; out: element 0 of a Byte array of `size` bytes (128 always suffice).
Public Declare PtrSafe Function egdb_position_to_hub Lib "egdb" (ByRef pos As Board, ByVal color As Long, ByRef hub As Byte) As Long
Public Declare PtrSafe Function egdb_hub_to_position Lib "egdb" (ByVal hub As String, ByRef pos As Board, ByRef color As Long) As Long
Public Declare PtrSafe Function egdb_move_text Lib "egdb" (ByRef from_pos As Board, ByRef to_pos As Board, ByVal color As Long, ByVal notation As Long, ByRef out As Byte, ByVal size As Long) As Long
Public Declare PtrSafe Function egdb_parse_move Lib "egdb" (ByRef pos As Board, ByVal color As Long, ByVal move As String, ByRef after As Board) As Long
' +1 for EGDB_WIN, 0 for EGDB_DRAW, -1 for EGDB_LOSS.
Public Declare PtrSafe Function egdb_wdl Lib "egdb" (ByVal value As Long) As Long

' Windows functions used by the helpers to read C strings.
Private Declare PtrSafe Function lstrlenA Lib "kernel32" (ByVal text As LongPtr) As Long
Private Declare PtrSafe Sub CopyMemory Lib "kernel32" Alias "RtlMoveMemory" (ByRef destination As Any, ByVal source As LongPtr, ByVal length As LongPtr)

#Else

' 32-bit Office has no LongLong: each bitboard is two Longs, low 32 bits first (see the top).
Public Type Board
    black_lo As Long
    black_hi As Long
    white_lo As Long
    white_hi As Long
    king_lo As Long
    king_hi As Long
End Type

Public Type EgdbProbe
    wld As Long
    dtw As Long
    mtc As Long
    best(0 To 127) As Byte
End Type

Public Type EgdbMoveDistance
    move(0 To 127) As Byte
    distance As Long
    wld As Long
    after As Board
End Type

' 64-bit counters as Currency: the count is the field * 10000.
Public Type EgdbStats
    lookups As Currency
    cache_hits As Currency
    cache_misses As Currency
    cache_bytes As Currency
    files As Currency
End Type

' --- the Kingsrow DLL functions ---
Public Declare Function egdb_open Lib "egdb" (ByVal options As String, ByVal cache_mb As Long, ByVal directory As String, ByVal logfile As String) As Long
Public Declare Function egdb_close Lib "egdb" (ByVal handle As Long) As Long
Public Declare Function egdb_identify Lib "egdb" (ByVal directory As String, ByRef egdb_type As Long, ByRef max_pieces As Long) As Long
Public Declare Function egdb_lookup Lib "egdb" (ByVal handle As Long, ByRef pos As Board, ByVal color As Long, ByVal cl As Long) As Long
Public Declare Function egdb_lookup_fen Lib "egdb" (ByVal handle As Long, ByVal fen As String, ByVal cl As Long) As Long
Public Declare Function egdb_lookup_with_search Lib "egdb" (ByVal handle As Long, ByRef pos As Board, ByVal color As Long) As Long
Public Declare Function egdb_lookup_fen_with_search Lib "egdb" (ByVal handle As Long, ByVal fen As String) As Long
Public Declare Function egdb_lookup_distance Lib "egdb" (ByVal handle_wld As Long, ByVal handle_dist As Long, ByVal fen As String, ByRef distances As Long, ByRef moves As Byte) As Long
Public Declare Function get_movelist Lib "egdb" (ByRef pos As Board, ByVal color As Long, ByRef movelist As Board) As Long
Public Declare Function is_capture Lib "egdb" (ByRef pos As Board, ByVal color As Long) As Boolean
' Slice sizes and indexes as Currency: the C value is the Currency * 10000 (see SliceSize).
Public Declare Function getdatabasesize_slice Lib "egdb" (ByVal nbm As Long, ByVal nbk As Long, ByVal nwm As Long, ByVal nwk As Long) As Currency
Public Declare Sub indextoposition Lib "egdb" (ByVal index As Currency, ByRef pos As Board, ByVal nbm As Long, ByVal nbk As Long, ByVal nwm As Long, ByVal nwk As Long)
Public Declare Function positiontoindex Lib "egdb" (ByRef pos As Board, ByVal nbm As Long, ByVal nbk As Long, ByVal nwm As Long, ByVal nwk As Long) As Currency
Public Declare Function is_sharp_win Lib "egdb" (ByVal handle As Long, ByRef pos As Board, ByVal color As Long, ByRef sharp As Board) As Integer
Public Declare Function move_string Lib "egdb" (ByRef from_pos As Board, ByRef to_pos As Board, ByVal color As Long, ByRef out As Byte) As Long
Public Declare Function positiontofen Lib "egdb" (ByRef pos As Board, ByVal color As Long, ByRef fen As Byte) As Long
Public Declare Function fentoposition Lib "egdb" (ByVal fen As String, ByRef pos As Board, ByRef color As Long) As Long

' --- egdb additions ---
Public Declare Function egdb_version Lib "egdb" () As Long
Public Declare Function egdb_last_error Lib "egdb" (ByVal handle As Long) As Long
Public Declare Function egdb_type Lib "egdb" (ByVal handle As Long) As Long
Public Declare Function egdb_max_pieces Lib "egdb" (ByVal handle As Long) As Long
Public Declare Function egdb_probe Lib "egdb" (ByVal handle As Long, ByRef pos As Board, ByVal color As Long, ByRef out As EgdbProbe) As Long
Public Declare Function egdb_probe_fen Lib "egdb" (ByVal handle As Long, ByVal fen As String, ByRef out As EgdbProbe) As Long
Public Declare Function egdb_best_moves Lib "egdb" (ByVal handle As Long, ByVal fen As String, ByVal kind As Long, ByRef out As EgdbMoveDistance, ByVal capacity As Long) As Long
Public Declare Function egdb_pv Lib "egdb" (ByVal handle As Long, ByVal fen As String, ByRef out As Byte, ByVal size As Long) As Long
Public Declare Function egdb_lookup_batch Lib "egdb" (ByVal handle As Long, ByRef positions As Board, ByRef colors As Long, ByVal count As Long, ByRef results As Long) As Long
Public Declare Function egdb_stats Lib "egdb" (ByVal handle As Long, ByRef out As EgdbStats) As Long
' progress: 0, or AddressOf a Function (ByVal user As Long, ByVal what As Long,
' ByVal done As Currency, ByVal total As Currency) As Long in a standard module.
Public Declare Function egdb_verify Lib "egdb" (ByVal handle As Long, ByVal progress As Long, ByVal user As Long) As Long
Public Declare Function egdb_build Lib "egdb" (ByVal directory As String, ByVal pieces As Long, ByVal threads As Long, ByVal kinds As String, ByVal verify As Long, ByVal progress As Long, ByVal user As Long) As Long

' Hub protocol notation (Scan's protocol.txt). hub: element 0 of a Byte array of at least
' EGDB_HUBLEN; out: element 0 of a Byte array of `size` bytes (128 always suffice).
Public Declare Function egdb_position_to_hub Lib "egdb" (ByRef pos As Board, ByVal color As Long, ByRef hub As Byte) As Long
Public Declare Function egdb_hub_to_position Lib "egdb" (ByVal hub As String, ByRef pos As Board, ByRef color As Long) As Long
Public Declare Function egdb_move_text Lib "egdb" (ByRef from_pos As Board, ByRef to_pos As Board, ByVal color As Long, ByVal notation As Long, ByRef out As Byte, ByVal size As Long) As Long
Public Declare Function egdb_parse_move Lib "egdb" (ByRef pos As Board, ByVal color As Long, ByVal move As String, ByRef after As Board) As Long
' +1 for EGDB_WIN, 0 for EGDB_DRAW, -1 for EGDB_LOSS.
Public Declare Function egdb_wdl Lib "egdb" (ByVal value As Long) As Long

Private Declare Function lstrlenA Lib "kernel32" (ByVal text As Long) As Long
Private Declare Sub CopyMemory Lib "kernel32" Alias "RtlMoveMemory" (ByRef destination As Any, ByVal source As Long, ByVal length As Long)

#End If

' ------------------------------------------------------------------------------------------
' Helpers (as the Kingsrow DLL's VBA module offers: other_color, postofen, movestr), plus FEN
' parsing, C strings and the 64-bit numbers on both Office versions.
' ------------------------------------------------------------------------------------------

' The other side.
Public Function other_color(ByVal color As Long) As Long
    other_color = 1 - color
End Function

' The text of a NUL-terminated byte buffer (e.g. filled by positiontofen or move_string).
Public Function BytesToString(buffer() As Byte) As String
    Dim n As Long
    n = LBound(buffer)
    Do While n <= UBound(buffer)
        If buffer(n) = 0 Then Exit Do
        n = n + 1
    Loop
    If n = LBound(buffer) Then
        BytesToString = ""
    Else
        BytesToString = StrConv(MidB(buffer, 1, n - LBound(buffer)), vbUnicode)
    End If
End Function

' FEN of a position, e.g. "W:W31-50:B1-20".
Public Function postofen(pos As Board, ByVal color As Long) As String
    Dim fen(0 To 179) As Byte
    If positiontofen(pos, color, fen(0)) > 0 Then postofen = BytesToString(fen)
End Function

' Parses a FEN into pos and color. Returns True, or False for a malformed FEN (egdb_error_text(-1)
' then says why; pos and color are unchanged).
Public Function fentopos(ByVal fen As String, pos As Board, color As Long) As Boolean
    fentopos = (fentoposition(fen, pos, color) = 0)
End Function

' The PDN move (e.g. "32-28", "28x19") from oldpos to newpos, "" if it is not a legal move.
Public Function movestr(oldpos As Board, newpos As Board, ByVal color As Long) As String
    Dim text(0 To MOVE_BUFFER - 1) As Byte
    If move_string(oldpos, newpos, color, text(0)) > 0 Then movestr = BytesToString(text)
End Function

' The legal moves of a position as PDN strings, in the generator's order (a 0-based array; an
' empty array has UBound -1).
Public Function legal_moves(pos As Board, ByVal color As Long) As String()
    Dim list(0 To EGDB_MAXMOVES - 1) As Board
    Dim n As Long, i As Long
    Dim moves() As String
    n = get_movelist(pos, color, list(0))
    If n <= 0 Then
        legal_moves = Split("")
        Exit Function
    End If
    ReDim moves(0 To n - 1)
    For i = 0 To n - 1
        moves(i) = movestr(pos, list(i), color)
    Next i
    legal_moves = moves
End Function

' The principal variation of a FEN as space-separated PDN moves, or "" (draw, no DTW data).
Public Function principal_variation(ByVal handle As Long, ByVal fen As String) As String
    Dim text(0 To 8191) As Byte
    If egdb_pv(handle, fen, text(0), 8192) > 0 Then principal_variation = BytesToString(text)
End Function

#If Win64 Then

' A C string returned by egdb_version or egdb_last_error.
Private Function CString(ByVal p As LongPtr) As String
    Dim n As Long
    Dim buffer() As Byte
    If p = 0 Then Exit Function
    n = lstrlenA(p)
    If n = 0 Then Exit Function
    ReDim buffer(0 To n - 1)
    CopyMemory buffer(0), p, n
    CString = StrConv(buffer, vbUnicode)
End Function

' Number of positions of a slice.
Public Function SliceSize(ByVal nbm As Long, ByVal nbk As Long, ByVal nwm As Long, ByVal nwk As Long) As Variant
    SliceSize = CDec(getdatabasesize_slice(nbm, nbk, nwm, nwk))
End Function

' Index of a position in its slice (as a Decimal Variant, exact on both Office versions).
Public Function PositionIndex(pos As Board, ByVal nbm As Long, ByVal nbk As Long, ByVal nwm As Long, ByVal nwk As Long) As Variant
    PositionIndex = CDec(positiontoindex(pos, nbm, nbk, nwm, nwk))
End Function

' The position with a given index in a slice.
Public Sub IndexPosition(ByVal index As Variant, pos As Board, ByVal nbm As Long, ByVal nbk As Long, ByVal nwm As Long, ByVal nwk As Long)
    indextoposition CLngLng(index), pos, nbm, nbk, nwm, nwk
End Sub

#Else

Private Function CString(ByVal p As Long) As String
    Dim n As Long
    Dim buffer() As Byte
    If p = 0 Then Exit Function
    n = lstrlenA(p)
    If n = 0 Then Exit Function
    ReDim buffer(0 To n - 1)
    CopyMemory buffer(0), p, n
    CString = StrConv(buffer, vbUnicode)
End Function

' The Currency returned in place of a 64-bit integer holds that integer / 10000.
Public Function SliceSize(ByVal nbm As Long, ByVal nbk As Long, ByVal nwm As Long, ByVal nwk As Long) As Variant
    SliceSize = CDec(getdatabasesize_slice(nbm, nbk, nwm, nwk)) * 10000
End Function

Public Function PositionIndex(pos As Board, ByVal nbm As Long, ByVal nbk As Long, ByVal nwm As Long, ByVal nwk As Long) As Variant
    PositionIndex = CDec(positiontoindex(pos, nbm, nbk, nwm, nwk)) * 10000
End Function

Public Sub IndexPosition(ByVal index As Variant, pos As Board, ByVal nbm As Long, ByVal nbk As Long, ByVal nwm As Long, ByVal nwk As Long)
    indextoposition CCur(CDec(index) / 10000), pos, nbm, nbk, nwm, nwk
End Sub

#End If

' The library's version, e.g. "0.1.0".
Public Function egdb_version_text() As String
    egdb_version_text = CString(egdb_version())
End Function

' What went wrong in the last failed call on a handle (-1: calls without a handle: open, FEN).
Public Function egdb_error_text(ByVal handle As Long) As String
    egdb_error_text = CString(egdb_last_error(handle))
End Function

' Win/loss/draw of a FEN with search, as text: "win", "loss", "draw", or the error.
Public Function egdb_value_text(ByVal handle As Long, ByVal fen As String) As String
    Dim v As Long
    v = egdb_lookup_fen_with_search(handle, fen)
    Select Case v
        Case EGDB_WIN: egdb_value_text = "win"
        Case EGDB_LOSS: egdb_value_text = "loss"
        Case EGDB_DRAW: egdb_value_text = "draw"
        Case Else: egdb_value_text = "error " & v & ": " & egdb_error_text(handle)
    End Select
End Function
