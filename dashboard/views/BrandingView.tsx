import { useEffect, useState } from 'preact/hooks'
import { brandPalette } from '../../src/ui/brandPalette'
import { contrastRatio } from '../../src/ui/contrastRatio'
import type { Api } from '../dashboardApi'
import type { DashboardStrings } from '../strings'
import { Outcome } from './Field'
import { useAction } from './useAction'

type Branding = { brandColor: string; logo: { url: string } | null } | null

const houseColor = '#0b57d0'
const hexColor = /^#[0-9a-fA-F]{6}$/

/** A file's bytes as standard base64, which the branding route takes. */
async function base64Of(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer())
  let binary = ''
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000))
  return btoa(binary)
}

/** A file picked here, shown before it is saved: the page's policy allows images as data: URLs. */
const dataUrlOf = (file: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'))
    reader.readAsDataURL(file)
  })

/**
 * The pay page's brand (the studio's colour and logo, /v1/studios/me/branding), with a preview drawn
 * with the pay page's own palette: the text colour it will pick, the contrast ratio that gives (WCAG
 * AA asks 4.5:1) and whether buttons need a darker edge to stand out on white.
 */
export function BrandingView({ api, t }: { api: Api; t: DashboardStrings }) {
  const words = t.settings
  const [stored, setStored] = useState<Branding | undefined>(undefined)
  const [color, setColor] = useState(houseColor)
  const [picked, setPicked] = useState<{ file: File; preview: string } | null>(null)
  const [keepLogo, setKeepLogo] = useState(true)
  const action = useAction()
  const { act, busy, showProblem } = action
  const load = async () => {
    const { branding } = await api.json<{ branding: Branding }>('GET', '/v1/studios/me/branding')
    setStored(branding)
    if (branding) setColor(branding.brandColor)
  }
  useEffect(() => void load().catch(showProblem), [])

  function save(event: SubmitEvent) {
    event.preventDefault()
    act(async () => {
      // PUT replaces the whole branding: the logo kept is sent again as it is stored
      const logo = picked ? await base64Of(picked.file) : stored?.logo && keepLogo ? await base64Of(await api.file(stored.logo.url)) : null
      const { branding } = await api.json<{ branding: Branding }>('PUT', '/v1/studios/me/branding', { brandColor: color, logo })
      setStored(branding)
      setPicked(null)
      return words.brandingSaved
    })
  }
  function remove() {
    act(async () => {
      await api.json('DELETE', '/v1/studios/me/branding')
      setStored(null)
      setColor(houseColor)
      return words.brandingRemoved
    })
  }

  const valid = hexColor.test(color)
  const palette = brandPalette(valid ? color.toLowerCase() : houseColor)
  const ratio = contrastRatio(palette.background, palette.text)
  const logoShown = picked?.preview ?? (keepLogo ? stored?.logo?.url : undefined)
  return (
    <>
      <h1>{t.branding}</h1>
      <p>{words.brandingIntro}</p>
      {stored === undefined ? (
        <p>{t.loading}</p>
      ) : (
        <form onSubmit={save}>
          <label for="brandColorPicker">{words.brandColor}</label>
          <input id="brandColorPicker" type="color" class="swatch" value={valid ? color.toLowerCase() : houseColor} onInput={(event) => setColor((event.currentTarget as HTMLInputElement).value)} />
          <label for="brandColor">{words.brandColorHex}</label>
          <input id="brandColor" name="brandColor" required pattern="#[0-9a-fA-F]{6}" value={color} onInput={(event) => setColor((event.currentTarget as HTMLInputElement).value.trim())} />
          <label for="logo">{words.logoFile}</label>
          <input
            id="logo"
            type="file"
            accept="image/png,image/jpeg,image/webp"
            onChange={(event) => {
              const file = (event.currentTarget as HTMLInputElement).files?.[0]
              if (!file) return setPicked(null)
              dataUrlOf(file).then((preview) => setPicked({ file, preview }), showProblem)
            }}
          />
          {stored?.logo && !picked ? (
            <div class="check">
              <input id="keepLogo" type="checkbox" checked={keepLogo} onChange={(event) => setKeepLogo((event.currentTarget as HTMLInputElement).checked)} />
              <label for="keepLogo">{words.keepLogo}</label>
            </div>
          ) : null}

          <h2>{words.preview}</h2>
          <div class="preview" style={{ background: palette.background, color: palette.text, borderColor: palette.edge }}>
            {logoShown ? <img src={logoShown} alt="" class="preview-logo" /> : null}
            <span class="preview-button" style={{ borderColor: palette.text }}>
              {words.previewButton}
            </span>
          </div>
          <p aria-live="polite">
            {words.contrast(ratio.toFixed(2), palette.text === '#ffffff' ? words.white : words.black)} {words.contrastPass}
            {palette.edge !== palette.background ? ` ${words.contrastEdge}` : ''}
          </p>

          <Outcome action={action} />
          <div class="actions">
            <button type="submit" disabled={busy || !valid}>
              {words.saveBranding}
            </button>
            {stored ? (
              <button type="button" class="secondary" disabled={busy} onClick={remove}>
                {words.removeBranding}
              </button>
            ) : null}
          </div>
        </form>
      )}
    </>
  )
}
