"""Chess mate search on python-chess boards (the ``chess`` extra, imported inside each function).

Two searches: `mates_in_one` / `forces_mate` (any first move, as the ChessMate puzzle asks;
checking moves found on bitboards) and `mate_by_checks` / `checks_hold` (mates in which every
move of the mating side gives check, as the Chess game's start positions and oracle use). Boards are changed with
push/pop and left as they were.
"""

from __future__ import annotations

from typing import Any


def _checking_moves(board) -> list:
    """The legal moves that give check. Bitboards pick the candidates (moves onto squares that see the
    enemy king, moves of pieces that may uncover a check, promotions, castling, en passant) and test
    them; only the special moves are pushed."""
    import chess

    me = board.turn
    king = board.king(not me)
    if king is None or board.attackers_mask(me, king):  # not a position this test is built for
        return [m for m in board.legal_moves if board.gives_check(m)]
    occupied, mine = board.occupied, board.occupied_co[me]
    straight = (board.rooks | board.queens) & mine
    diagonal = (board.bishops | board.queens) & mine
    rook_rays = (chess.BB_RANK_ATTACKS[king][chess.BB_RANK_MASKS[king] & occupied]
                 | chess.BB_FILE_ATTACKS[king][chess.BB_FILE_MASKS[king] & occupied])
    diag_rays = chess.BB_DIAG_ATTACKS[king][chess.BB_DIAG_MASKS[king] & occupied]
    targets = rook_rays | diag_rays | chess.BB_KNIGHT_ATTACKS[king] | chess.BB_PAWN_ATTACKS[not me][king]
    snipers = ((chess.BB_RANK_ATTACKS[king][0] | chess.BB_FILE_ATTACKS[king][0]) & straight
               | chess.BB_DIAG_ATTACKS[king][0] & diagonal)
    anywhere = board.pawns & mine & (chess.BB_RANK_7 if me == chess.WHITE else chess.BB_RANK_2)
    for sniper in chess.scan_forward(snipers):
        between = chess.between(king, sniper) & occupied
        if between and not between & (between - 1):
            anywhere |= between & mine
    if board.has_castling_rights(me):
        anywhere |= board.kings & mine
    if board.ep_square is not None:
        anywhere |= board.pawns & mine & chess.BB_PAWN_ATTACKS[not me][board.ep_square]
    # a piece that uncovers nothing checks from its new square only if that square sees the king
    # (its old square cannot have been on that line: the enemy king is not in check now)
    sees = ((board.pawns, chess.BB_PAWN_ATTACKS[not me][king]), (board.knights, chess.BB_KNIGHT_ATTACKS[king]),
            (board.bishops, diag_rays), (board.rooks, rook_rays), (board.queens, rook_rays | diag_rays))
    out = []
    for m in board.generate_legal_moves(mine & ~anywhere, targets):
        src, dst = chess.BB_SQUARES[m.from_square], chess.BB_SQUARES[m.to_square]
        if any(src & kind and dst & squares for kind, squares in sees):
            out.append(m)
    if anywhere:
        out += [m for m in board.generate_legal_moves(anywhere, chess.BB_ALL)
                if _gives_check(board, m, king, straight, diagonal)]
    return out


def _gives_check(board, m, king: int, straight: int, diagonal: int) -> bool:
    """Whether legal move ``m`` checks the enemy king on ``king`` (the mover's rooks and queens
    ``straight``, bishops and queens ``diagonal``), on bitboards unless the move is special."""
    import chess

    src, dst = m.from_square, m.to_square
    if m.promotion or board.is_castling(m) or board.is_en_passant(m):
        return board.gives_check(m)
    occ = board.occupied & ~chess.BB_SQUARES[src] | chess.BB_SQUARES[dst]
    kind = board.piece_type_at(src)
    if kind == chess.PAWN:
        direct = chess.BB_PAWN_ATTACKS[board.turn][dst]
    elif kind == chess.KNIGHT:
        direct = chess.BB_KNIGHT_ATTACKS[dst]
    else:
        direct = 0
        if kind in (chess.ROOK, chess.QUEEN):
            direct |= (chess.BB_RANK_ATTACKS[dst][chess.BB_RANK_MASKS[dst] & occ]
                       | chess.BB_FILE_ATTACKS[dst][chess.BB_FILE_MASKS[dst] & occ])
        if kind in (chess.BISHOP, chess.QUEEN):
            direct |= chess.BB_DIAG_ATTACKS[dst][chess.BB_DIAG_MASKS[dst] & occ]
    if direct & chess.BB_SQUARES[king]:
        return True
    # a discovered check: a slider of the mover's (not the moving piece) now sees the king
    rest = ~chess.BB_SQUARES[src]
    lines = (chess.BB_RANK_ATTACKS[king][chess.BB_RANK_MASKS[king] & occ]
             | chess.BB_FILE_ATTACKS[king][chess.BB_FILE_MASKS[king] & occ]) & straight & rest
    return bool(lines or chess.BB_DIAG_ATTACKS[king][chess.BB_DIAG_MASKS[king] & occ] & diagonal & rest)


def _bare_king_mated(board, m) -> bool:
    """Whether checking move ``m`` (not a promotion, castling or en passant) mates a king that is the
    only piece of its side: every square next to it is attacked once ``m`` is made (the king itself
    blocks no line, and a piece it could take is taken off its square)."""
    import chess

    me = board.turn
    king = board.king(not me)
    src, dst = chess.BB_SQUARES[m.from_square], chess.BB_SQUARES[m.to_square]
    kind = board.piece_type_at(m.from_square)
    mine = board.occupied_co[me]
    occ = (board.occupied & ~src | dst) & ~chess.BB_SQUARES[king]

    def moved(pieces: int, piece_type: int) -> int:
        pieces &= mine & ~src
        return pieces | dst if kind == piece_type else pieces

    pawns, knights, kings = moved(board.pawns, chess.PAWN), moved(board.knights, chess.KNIGHT), moved(board.kings, chess.KING)
    queens = moved(board.queens, chess.QUEEN)
    straight = moved(board.rooks, chess.ROOK) | queens
    diagonal = moved(board.bishops, chess.BISHOP) | queens
    for sq in chess.scan_forward(chess.BB_KING_ATTACKS[king]):
        here = ~chess.BB_SQUARES[sq]  # a piece on the square is taken, so it does not guard it
        if not ((chess.BB_KNIGHT_ATTACKS[sq] & knights | chess.BB_KING_ATTACKS[sq] & kings
                 | chess.BB_PAWN_ATTACKS[not me][sq] & pawns) & here
                or (chess.BB_RANK_ATTACKS[sq][chess.BB_RANK_MASKS[sq] & occ]
                    | chess.BB_FILE_ATTACKS[sq][chess.BB_FILE_MASKS[sq] & occ]) & straight & here
                or chess.BB_DIAG_ATTACKS[sq][chess.BB_DIAG_MASKS[sq] & occ] & diagonal & here):
            return False
    return True


def _mates(board, m, bare: bool) -> bool:
    """Whether the checking move ``m`` mates (``bare``: the side to be mated has only its king, read without
    making the move where no promotion, castling or en passant complicates it)."""
    if bare and not (m.promotion or board.is_castling(m) or board.is_en_passant(m)):
        return _bare_king_mated(board, m)
    board.push(m)
    mated = not any(board.generate_legal_moves())
    board.pop()
    return mated


def mates_in_one(board, first: bool = False) -> list:
    """The mating moves (only the first one found when ``first``)."""
    bare = board.occupied_co[not board.turn] == board.kings & board.occupied_co[not board.turn]
    out = []
    for m in _checking_moves(board):
        if _mates(board, m, bare):
            out.append(m)
            if first:
                break
    return out


def forces_mate(board, move, plies: int) -> bool:
    """Does ``move`` mate at once or (plies == 3) force mate on the next move against every reply?"""
    board.push(move)
    try:
        replies = list(board.legal_moves)
        if not replies:
            return board.is_check()  # mate, or stalemate
        # a fresh position (no history, so no move-count or repetition draw): only bare material ends it
        if plies < 3 or board.is_insufficient_material():
            return False
        for reply in replies:
            board.push(reply)
            ok = bool(mates_in_one(board, first=True))
            board.pop()
            if not ok:
                return False
        return True
    finally:
        board.pop()


def mate_by_checks(board, k: int, memo: dict) -> Any:
    """The first legal checking move (in ``board.legal_moves`` order, pawns promoting to a queen
    only) that mates within ``k`` moves of the side to move against any reply, every one of them a
    check; None if there is none. ``memo`` caches verdicts by position and ``k``."""
    key = (board._transposition_key(), k)
    if key in memo:
        return memo[key]
    checks = [m for m in _checking_moves(board) if m.promotion in (None, 5)]   # found on bitboards, not pushed
    if len(checks) > 1:   # tried in board.legal_moves order, as the first mating one is returned
        picked = set(checks)   # (python-chess's masks only filter its generation: the order of what is left stays)
        from_mask = to_mask = 0
        for m in checks:
            from_mask |= 1 << m.from_square
            to_mask |= 1 << m.to_square
        checks = [m for m in board.generate_legal_moves(from_mask, to_mask) if m in picked]
        if len(checks) != len(picked):   # a move the masks missed (castling is found by its rook): every move
            checks = [m for m in board.legal_moves if m in picked]
    bare = k == 1 and board.occupied_co[not board.turn] == board.kings & board.occupied_co[not board.turn]
    found = None
    for m in checks:
        if k == 1:   # a mate at once, as `mates_in_one` tests it
            ok = _mates(board, m, bare)
        else:
            board.push(m)
            replies = list(board.legal_moves)
            ok = not replies or checks_hold(board, k - 1, memo, replies)
            board.pop()
        if ok:
            found = m
            break
    memo[key] = found
    return found


def checks_hold(board, k: int, memo: dict, replies: list | None = None) -> bool:
    """Whether every reply of the side to move leaves a mate by checks (`mate_by_checks`) within
    ``k`` moves of the other side (False in stalemate and with only bare material left)."""
    replies = list(board.legal_moves) if replies is None else replies
    if not replies or board.is_insufficient_material():
        return False
    for r in replies:
        board.push(r)
        ok = mate_by_checks(board, k, memo) is not None
        board.pop()
        if not ok:
            return False
    return True
