/**
 * Renders the charts' SVGs (recharts draws plain SVG) onto one canvas, stacked, on a white
 * background, and returns a PNG — in the browser, without a dependency. Styles recharts sets as
 * attributes survive serialisation; the page's font is named explicitly for the text.
 */
export async function svgsToPng(svgs: SVGSVGElement[], scale = 2): Promise<Blob> {
  const images = await Promise.all(svgs.map(loadSvg));
  const width = Math.max(...images.map((i) => i.width));
  const height = images.reduce((h, i) => h + i.height, 0);
  const canvas = document.createElement("canvas");
  canvas.width = Math.ceil(width * scale);
  canvas.height = Math.ceil(height * scale);
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("this browser cannot draw on a canvas");
  ctx.scale(scale, scale);
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, width, height);
  let y = 0;
  for (const image of images) {
    ctx.drawImage(image.element, 0, y, image.width, image.height);
    y += image.height;
  }
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("the canvas produced no PNG"))), "image/png"));
}

async function loadSvg(svg: SVGSVGElement): Promise<{ element: HTMLImageElement; width: number; height: number }> {
  const box = svg.getBoundingClientRect();
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  clone.setAttribute("width", String(box.width));
  clone.setAttribute("height", String(box.height));
  clone.style.fontFamily = getComputedStyle(svg).fontFamily || "sans-serif";
  const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(clone)], { type: "image/svg+xml;charset=utf-8" }));
  try {
    const element = new Image();
    await new Promise<void>((resolve, reject) => {
      element.onload = () => resolve();
      element.onerror = () => reject(new Error("the chart could not be rendered as an image"));
      element.src = url;
    });
    return { element, width: box.width, height: box.height };
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Starts a download of `blob` under `fileName`. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
