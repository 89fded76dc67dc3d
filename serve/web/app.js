// The page of `egdb serve`: a board drawn in SVG, a position set up by FEN or by clicking squares,
// its value from GET /international, every move coloured by the result it gives the side that
// plays it, and the main line from GET /international/mainline. No framework, no network beyond
// this server.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 50;
const DEFAULT_FEN = "W:W28,K46:B8";

// The position shown: squares[1..50] hold "w", "b", "W", "B" (kings) or "e"; side is "W" or "B".
const state = { squares: Array(51).fill("e"), side: "W", requestId: 0 };

// Square n (1..50) in the board's rows and columns, row 0 at the top (Black's side).
function squareCell(n) {
  const row = Math.floor((n - 1) / 5);
  const k = (n - 1) % 5;
  return { row, col: row % 2 === 0 ? 2 * k + 1 : 2 * k };
}

function hubString() { return state.side + state.squares.slice(1).join(""); }

// A FEN of the shown position (squares listed one by one; the server answers with its canonical form).
function fenString() {
  const list = (colour) => {
    const items = [];
    for (let n = 1; n <= 50; ++n) {
      const p = state.squares[n];
      if (p.toLowerCase() === colour) items.push((p === colour.toUpperCase() ? "K" : "") + n);
    }
    return items.join(",");
  };
  return state.side + ":W" + list("w") + ":B" + list("b");
}

function setFromHub(hub) {
  state.side = hub[0];
  for (let n = 1; n <= 50; ++n) state.squares[n] = hub[n];
}

function drawBoard() {
  const board = document.getElementById("board");
  board.replaceChildren();
  for (let row = 0; row < 10; ++row) {
    for (let col = 0; col < 10; ++col) {
      if ((row + col) % 2 === 0) {
        const light = document.createElementNS(SVG, "rect");
        light.setAttribute("x", col * CELL); light.setAttribute("y", row * CELL);
        light.setAttribute("width", CELL); light.setAttribute("height", CELL);
        light.setAttribute("class", "light");
        board.appendChild(light);
      }
    }
  }
  for (let n = 1; n <= 50; ++n) {
    const { row, col } = squareCell(n);
    const g = document.createElementNS(SVG, "g");
    g.setAttribute("class", "square");
    g.dataset.square = String(n);
    g.dataset.piece = state.squares[n];
    const rect = document.createElementNS(SVG, "rect");
    rect.setAttribute("x", col * CELL); rect.setAttribute("y", row * CELL);
    rect.setAttribute("width", CELL); rect.setAttribute("height", CELL);
    rect.setAttribute("class", "dark");
    g.appendChild(rect);
    const label = document.createElementNS(SVG, "text");
    label.setAttribute("x", col * CELL + 3); label.setAttribute("y", row * CELL + 12);
    label.setAttribute("class", "number");
    label.textContent = String(n);
    g.appendChild(label);
    const p = state.squares[n];
    if (p !== "e") {
      const disc = document.createElementNS(SVG, "circle");
      disc.setAttribute("cx", col * CELL + CELL / 2); disc.setAttribute("cy", row * CELL + CELL / 2);
      disc.setAttribute("r", CELL * 0.38);
      disc.setAttribute("class", p.toLowerCase() === "w" ? "white-piece" : "black-piece");
      g.appendChild(disc);
      if (p === "W" || p === "B") {
        const crown = document.createElementNS(SVG, "circle");
        crown.setAttribute("cx", col * CELL + CELL / 2); crown.setAttribute("cy", row * CELL + CELL / 2);
        crown.setAttribute("r", CELL * 0.2);
        crown.setAttribute("class", "crown");
        g.appendChild(crown);
      }
    }
    g.addEventListener("click", () => editSquare(n));
    board.appendChild(g);
  }
  board.dataset.hub = hubString();
  document.getElementById("side").textContent = state.side === "W" ? "White to move" : "Black to move";
}

function editSquare(n) {
  const tool = document.querySelector("input[name=tool]:checked").value;
  if ((tool === "w" && n <= 5) || (tool === "b" && n >= 46)) {
    showStatus("a man cannot stand on its own promotion row");
    return;
  }
  state.squares[n] = state.squares[n] === tool ? "e" : tool;
  probe(fenString());
}

function showStatus(text) { document.getElementById("status").textContent = text; }

// The result a value of the position after a move gives the side that played it.
function resultForMover(category) {
  return { win: "loss", loss: "win", draw: "draw" }[category] || "unknown";
}

function distanceText(value) {
  const parts = [];
  if (value.dtw_plies !== null) parts.push("DTW " + value.dtw_plies);
  if (value.mtc_plies !== null) parts.push("MTC " + value.mtc_plies);
  return parts.join(" · ");
}

function showValue(report) {
  const value = document.getElementById("value");
  value.replaceChildren();
  const side = report.hub[0] === "W" ? "White" : "Black";
  const word = document.createElement("span");
  word.className = report.category;
  word.textContent = side + " to move: " + report.category;
  value.appendChild(word);
  const distances = distanceText(report);
  if (distances) value.appendChild(document.createTextNode(" (" + distances + " plies)"));
}

function showMoves(report) {
  const list = document.getElementById("moves");
  list.replaceChildren();
  for (const move of report.moves) {
    const li = document.createElement("li");
    const result = resultForMover(move.category);
    li.className = "move " + result;
    li.dataset.fen = move.fen;
    li.dataset.pdn = move.pdn;
    const pdn = document.createElement("span");
    pdn.className = "pdn";
    pdn.textContent = move.pdn;
    li.appendChild(pdn);
    li.appendChild(document.createTextNode(result));
    const distances = distanceText(move);
    if (distances) {
      const d = document.createElement("span");
      d.className = "distance";
      d.textContent = distances + " after";
      li.appendChild(d);
    }
    li.addEventListener("click", () => probe(move.fen));
    list.appendChild(li);
  }
  if (report.moves.length === 0) {
    const li = document.createElement("li");
    li.textContent = "no legal move: the side to move has lost";
    list.appendChild(li);
  }
}

function showMainline(answer) {
  const line = document.getElementById("mainline");
  const moves = answer.mainline.map((m) => m.pdn).join(" ");
  const winner = answer.winner === "w" ? "White wins" : answer.winner === "b" ? "Black wins" : "draw";
  line.textContent = (moves ? moves + " — " : "") + winner;
}

async function getJson(path, fen) {
  const response = await fetch(path + "?fen=" + encodeURIComponent(fen));
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

// Shows `fen`: its value and moves, then its main line. An answer that arrives after a newer
// request was made is dropped, so quick clicks never show an older position.
async function probe(fen) {
  const id = ++state.requestId;
  try {
    const report = await getJson("/international", fen);
    if (id !== state.requestId) return;
    setFromHub(report.hub);
    drawBoard();
    document.getElementById("fen").value = report.fen;
    history.replaceState(null, "", "#fen=" + encodeURIComponent(report.fen));
    showStatus("");
    showValue(report);
    showMoves(report);
    document.getElementById("mainline").textContent = "…";
    const mainline = await getJson("/international/mainline", report.fen);
    if (id !== state.requestId) return;
    showMainline(mainline);
  } catch (error) {
    if (id !== state.requestId) return;
    drawBoard();  // the edited position stays on the board, with the reason it has no value
    showStatus(error.message);
    document.getElementById("value").replaceChildren();
    document.getElementById("moves").replaceChildren();
    document.getElementById("mainline").textContent = "";
  }
}

document.getElementById("fen-form").addEventListener("submit", (event) => {
  event.preventDefault();
  probe(document.getElementById("fen").value);
});
document.getElementById("side").addEventListener("click", () => {
  state.side = state.side === "W" ? "B" : "W";
  probe(fenString());
});
document.getElementById("clear").addEventListener("click", () => {
  state.squares.fill("e");
  drawBoard();
  document.getElementById("fen").value = fenString();
  showStatus("an empty board: put pieces on it");
});

// A position to open from the link: #fen=... (this page's own links) or ?fen=... (the form
// syzygy-tables.info and the lichess analysis board use).
const linkFen =
  new URLSearchParams(location.hash.slice(1)).get("fen") || new URLSearchParams(location.search).get("fen");
drawBoard();
probe(linkFen || DEFAULT_FEN);
