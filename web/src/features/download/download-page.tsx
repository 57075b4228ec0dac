import { CircleCheck, Download, EllipsisVertical, Share, Smartphone, SquarePlus, WifiOff, BellRing, Maximize } from 'lucide-react';
import { useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { toast } from '../../components/ui/toast-store';
import { getInstallOffer, setInstallOffer, subscribeInstallOffer } from '../../lib/offline-app';
import { useDocumentTitle } from '../../lib/use-document-title';
import { INSTALLED_DISPLAY_MODES, installStateOf, phonePlatformOf, type PhonePlatform } from './install-state';

function runsInstalled(): boolean {
  return INSTALLED_DISPLAY_MODES.some((mode) => window.matchMedia(`(display-mode: ${mode})`).matches);
}

/** The display mode, followed live: a page can move into the app window when it is installed. */
function useStandalone(): boolean {
  const [standalone, setStandalone] = useState(runsInstalled);
  useEffect(() => {
    const queries = INSTALLED_DISPLAY_MODES.map((mode) => window.matchMedia(`(display-mode: ${mode})`));
    const update = () => setStandalone(runsInstalled());
    queries.forEach((query) => query.addEventListener('change', update));
    return () => queries.forEach((query) => query.removeEventListener('change', update));
  }, []);
  return standalone;
}

/** Shows the browser's install dialog (its offer can be used only once); the outcome. */
async function promptInstall(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
  const offer = getInstallOffer().prompt;
  if (!offer) return 'unavailable';
  setInstallOffer({ ...getInstallOffer(), prompt: null });
  await offer.prompt();
  const { outcome } = await offer.userChoice;
  if (outcome === 'accepted') setInstallOffer({ prompt: null, installed: true });
  return outcome;
}

interface ManualGuide {
  platform: Exclude<PhonePlatform, 'other'>;
  title: string;
  steps: readonly { icon?: ReactNode; text: ReactNode }[];
}

const guides: readonly ManualGuide[] = [
  {
    platform: 'ios',
    title: 'iPhone and iPad (Safari)',
    steps: [
      { text: 'Open this page in Safari.' },
      {
        icon: <Share aria-hidden="true" className="size-4" />,
        text: (
          <>
            Tap the <strong>Share</strong> button in the toolbar.
          </>
        ),
      },
      {
        icon: <SquarePlus aria-hidden="true" className="size-4" />,
        text: (
          <>
            Scroll down and tap <strong>Add to Home Screen</strong>.
          </>
        ),
      },
      {
        text: (
          <>
            Tap <strong>Add</strong>. Fixly opens from its icon on your home screen.
          </>
        ),
      },
    ],
  },
  {
    platform: 'android',
    title: 'Android (Chrome)',
    steps: [
      { text: 'Open this page in Chrome.' },
      {
        icon: <EllipsisVertical aria-hidden="true" className="size-4" />,
        text: (
          <>
            Tap the <strong>menu</strong> (three dots) at the top right.
          </>
        ),
      },
      {
        icon: <Download aria-hidden="true" className="size-4" />,
        text: (
          <>
            Tap <strong>Install app</strong> (on some phones <strong>Add to Home screen</strong>).
          </>
        ),
      },
      {
        text: (
          <>
            Confirm with <strong>Install</strong>. Fixly appears with your other apps.
          </>
        ),
      },
    ],
  },
];

const perks: readonly { icon: ReactNode; title: string; text: string }[] = [
  { icon: <Maximize aria-hidden="true" className="size-5" />, title: 'Full screen', text: 'Opens from its own icon, without the browser’s address bar.' },
  { icon: <BellRing aria-hidden="true" className="size-5" />, title: 'Notifications', text: 'Pros can turn on push to hear about new job offers at once.' },
  {
    icon: <WifiOff aria-hidden="true" className="size-5" />,
    title: 'Works offline',
    text: 'With no signal, the worker dashboard still opens and shows the jobs it last loaded.',
  },
];

export default function DownloadPage() {
  useDocumentTitle('Install the App');
  const standalone = useStandalone();
  const offer = useSyncExternalStore(subscribeInstallOffer, getInstallOffer, getInstallOffer);
  const [platform] = useState(() => phonePlatformOf(navigator.userAgent, navigator.maxTouchPoints));
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone;
  const state = installStateOf({ standalone, iosStandalone, installedNow: offer.installed, promptAvailable: Boolean(offer.prompt) });
  // The visitor's own phone first; both are always there.
  const ordered = platform === 'android' ? [...guides].reverse() : guides;

  const install = async () => {
    const outcome = await promptInstall();
    if (outcome === 'dismissed') toast({ title: 'Not installed', description: 'You can install Fixly from this page whenever you like.' });
  };

  return (
    <div className="mx-auto max-w-4xl px-4 py-12">
      <header className="mb-8 text-center">
        <Smartphone aria-hidden="true" className="mx-auto mb-4 size-14 text-amber-300" />
        <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">Install the App</h1>
        <p className="mt-3 text-lg text-slate-200">Put Fixly on your home screen: no app store, nothing to pay, a few seconds.</p>
      </header>

      <Card className="mb-8">
        <h2 id="install-status-title" className="sr-only">
          Install status
        </h2>
        {state === 'installed' ? (
          <div className="flex items-start gap-3">
            <CircleCheck aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-green-300" />
            <div>
              <p className="text-lg font-semibold text-white">Fixly is installed on this device</p>
              <p className="mt-1 text-slate-200">
                {standalone || iosStandalone ? 'You are using the installed app.' : 'Open Fixly from your home screen or your list of apps.'}
              </p>
            </div>
          </div>
        ) : state === 'prompt' ? (
          <div className="flex flex-wrap items-center justify-between gap-4">
            <div>
              <p className="text-lg font-semibold text-white">Your browser can install Fixly</p>
              <p className="mt-1 text-slate-200">One tap adds it to your device, like any other app.</p>
            </div>
            <Button size="lg" onClick={() => void install()}>
              <Download aria-hidden="true" className="size-5" />
              Install
            </Button>
          </div>
        ) : (
          <div>
            <p className="text-lg font-semibold text-white">Add Fixly to your home screen</p>
            <p className="mt-1 text-slate-200">This browser does not offer a one-tap install here. The steps below take a few seconds.</p>
          </div>
        )}
      </Card>

      <section aria-labelledby="manual-title" className="mb-10">
        <h2 id="manual-title" className="mb-4 text-2xl font-bold text-white">
          Install it yourself
        </h2>
        <div className="grid gap-6 md:grid-cols-2">
          {ordered.map((guide) => (
            <Card key={guide.platform}>
              <h3 id={`manual-${guide.platform}`} className="text-lg font-semibold text-white">
                {guide.title}
              </h3>
              <ol className="mt-4 grid gap-3">
                {guide.steps.map((step, index) => (
                  <li key={index} className="flex gap-3 text-slate-100">
                    <span aria-hidden="true" className="flex size-7 shrink-0 items-center justify-center rounded-full bg-amber-400 text-sm font-bold text-slate-950">
                      {index + 1}
                    </span>
                    <span className="pt-0.5">
                      {step.text}
                      {step.icon ? <span className="ml-1.5 inline-block align-[-2px] text-amber-300">{step.icon}</span> : null}
                    </span>
                  </li>
                ))}
              </ol>
            </Card>
          ))}
        </div>
      </section>

      <section aria-labelledby="perks-title" className="mb-10">
        <h2 id="perks-title" className="mb-4 text-2xl font-bold text-white">
          What you get
        </h2>
        <ul className="grid gap-4 sm:grid-cols-3">
          {perks.map((perk) => (
            <li key={perk.title} className="rounded-2xl bg-slate-900/85 p-5 ring-1 ring-white/10">
              <span className="flex size-10 items-center justify-center rounded-full bg-amber-400 text-slate-950">{perk.icon}</span>
              <h3 className="mt-3 font-semibold text-white">{perk.title}</h3>
              <p className="mt-1 text-sm text-slate-200">{perk.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="stores-title">
        <h2 id="stores-title" className="mb-4 text-2xl font-bold text-white">
          Native apps
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2">
          {['App Store (iPhone and iPad)', 'Google Play (Android)'].map((store) => (
            <li key={store} className="flex flex-col gap-3 rounded-2xl bg-slate-900/85 p-5 ring-1 ring-white/10">
              <h3 className="font-semibold text-white">{store}</h3>
              <p className="text-sm text-slate-200">Premium Paid App</p>
              <Badge tone="amber" className="self-start">
                Coming soon
              </Badge>
            </li>
          ))}
        </ul>
        <p className="mt-4 text-sm text-slate-300">Not in the stores yet: the installed web app above is free and has everything the site has.</p>
      </section>
    </div>
  );
}
